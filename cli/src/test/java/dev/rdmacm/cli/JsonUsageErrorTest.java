package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A usage error under {@code --json}, for every command: docs/json.md's {@code error} object on stdout
 * ({@code EINVAL}), nothing on stderr, and the exit status the same error has without {@code --json}.
 * Each case is a command and arguments picocli or the command refuses.
 */
@Timeout(60)
class JsonUsageErrorTest
{
    private static final JsonVocabulary VOCABULARY = JsonVocabulary.ofThisCheckout();

    @ParameterizedTest
    @ValueSource(strings = {
        "getaddrinfo --no-such-option",
        "resolve-addrinfo --family nosuch 192.0.2.1",
        "devices --no-such-option",
        "resolve-addr",
        "resolve-addr 192.0.2.1 --timeout-ms -1",
        "resolve-route 192.0.2.1 --port 70000",
        "path --no-such-option",
        "rping -s -c",
        "rping -c -a 192.0.2.1 -S 1",
        "cmtime -c 0",
        "mckey -s",
        "mckey -m 239.1.2.3 -c 0",
        "demo --no-such-option",
        "acm-server --server-port x",
    })
    void shouldPrintTheErrorObjectWithTheStatusOfTheTextError(final String arguments)
    {
        final CommandRun text = CommandRun.run(arguments.split(" "));
        final List<String> withJson = new ArrayList<>(List.of(arguments.split(" ")));
        withJson.add(1, "--json");

        final CommandRun json = CommandRun.run(withJson.toArray(String[]::new));

        assertNotEquals(0, text.exit(), text.out() + text.err());
        assertEquals(text.exit(), json.exit(), json.out() + json.err());
        assertEquals("", json.err());
        final JsonNode error = VOCABULARY.check("error", json.out());
        assertEquals("EINVAL", error.get("error").asText(), json.out());
        assertEquals(22, error.get("code").asInt());
    }
}

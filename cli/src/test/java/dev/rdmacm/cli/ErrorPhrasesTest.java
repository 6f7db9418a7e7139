package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Each error names the input and the rule once (issue 31), over every command's bad inputs that need no
 * peer: unknown options and commands, values out of range or of no known form, options that need
 * another, names that do not resolve. The error line (the first line on stderr) and the {@code --json}
 * error's message must name the bad input exactly once, and say no phrase of {@value #PHRASE_WORDS}
 * words twice. {@link ErrorMessagesTest} holds the failures that need peers (namespaces, an SA) to the
 * same rule.
 */
@Timeout(60)
class ErrorPhrasesTest
{
    private static final int PHRASE_WORDS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    /** The error line of each input that failed as it must, by {@link #errorLine}. */
    private static final Map<BadInput, String> ERROR_LINES = new ConcurrentHashMap<>();

    /** One bad input: the command line, and the word of it the error must name. */
    record BadInput(String input, List<String> args)
    {
        static BadInput of(final String input, final String... args)
        {
            return new BadInput(input, List.of(args));
        }

        /**
         * The long option the bad input is the value of ({@code family} for {@code --family ipx}, spelt
         * with a blank or a hyphen), or null: the line must not name it again in other words ({@code family
         * 'ipx'} after picocli's {@code option '--family'}).
         */
        java.util.regex.Pattern option()
        {
            final int at = args.indexOf(input);
            if (at < 1 || !args.get(at - 1).startsWith("--"))
            {
                return null;
            }
            return java.util.regex.Pattern.compile("(?i)(?<![a-z])" + args.get(at - 1).substring(2).replace("-", "[- ]") + "(?![a-z])");
        }

        @Override
        public String toString()
        {
            return String.join(" ", args);
        }
    }

    static Stream<BadInput> badInputs()
    {
        return Stream.of(
            BadInput.of("nosuchcommand", "nosuchcommand"),
            BadInput.of("--no-such-option", "getaddrinfo", "--no-such-option"),
            BadInput.of("ipx", "getaddrinfo", "192.0.2.1", "7471", "--family", "ipx"),
            BadInput.of("FOO", "getaddrinfo", "192.0.2.1", "7471", "--qp-type", "FOO"),
            BadInput.of("99", "getaddrinfo", "192.0.2.1", "7471", "--port-space", "99"),
            BadInput.of("zz", "getaddrinfo", "192.0.2.1", "7471", "--flags", "zz"),
            BadInput.of("10.1.0.300", "getaddrinfo", "192.0.2.1", "7471", "--src", "10.1.0.300"),
            BadInput.of("ipx", "resolve-addrinfo", "192.0.2.1", "7471", "--family", "ipx"),
            BadInput.of("-i 0", "devices", "-i", "0"),
            BadInput.of("netlink", "devices", "--source", "netlink"),
            BadInput.of("10.1.0.300", "resolve-addr", "10.1.0.300"),
            BadInput.of("10.1.0.300", "resolve-addr", "192.0.2.1", "--src", "10.1.0.300"),
            BadInput.of("--timeout-ms -1", "resolve-addr", "192.0.2.1", "--timeout-ms", "-1"),
            BadInput.of("linux-5.4", "resolve-addr", "192.0.2.1", "--kernel-profile", "linux-5.4"),
            BadInput.of("--hosts", "resolve-addr", "10.0.0.5", "--hosts", "/nonexistent/hosts"),
            BadInput.of("--fabric", "resolve-addr", "10.0.0.5", "--fabric", "ibsim:127.0.0.1:7070:Hca2"),
            BadInput.of("no-such-host.invalid", "resolve-addr", "no-such-host.invalid"),
            BadInput.of("'DST'", "resolve-route"),
            BadInput.of("--port 70000", "resolve-route", "192.0.2.1", "--port", "70000"),
            BadInput.of("--tos 300", "resolve-route", "192.0.2.1", "--tos", "300"),
            BadInput.of("ibsim:1.2.3.4", "resolve-route", "192.0.2.1", "--fabric", "ibsim:1.2.3.4"),
            BadInput.of("infiniband0", "resolve-route", "192.0.2.1", "--fabric", "infiniband0"),
            BadInput.of("ibsim:nohost", "path", "--fabric", "ibsim:nohost", "--dgid", "fe80::10:4"),
            BadInput.of("--dlid", "path", "--fabric", "ibsim:127.0.0.1:7070:Hca2"),
            BadInput.of("infiniband0", "acm-server", "--fabric", "infiniband0", "-O", "/nonexistent/opts.cfg"),
            BadInput.of("-c 0", "cmtime", "-c", "0"),
            BadInput.of("abc", "cmtime", "-p", "abc"),
            BadInput.of("no-such-host.invalid", "cmtime", "-s", "no-such-host.invalid"),
            BadInput.of("abc", "rping", "-c", "-C", "abc"),
            BadInput.of("no-such-host.invalid", "rping", "-c", "-a", "no-such-host.invalid"),
            BadInput.of("umad", "rping", "-c", "-a", "192.0.2.1", "--cm", "umad"),
            BadInput.of("umad", "cmtime", "-s", "192.0.2.1", "--cm", "umad"),
            BadInput.of("--pcap", "rping", "-c", "-a", "192.0.2.1", "--cm", "kernel", "--pcap", "/nonexistent/rping.pcap"),
            BadInput.of("-c 0", "mckey", "-m", "239.1.2.3", "-c", "0"),
            BadInput.of("0x106", "mckey", "-m", "239.1.2.3", "-p", "0x106"),
            BadInput.of("--timeout-ms 0", "demo", "--no-setup", "--timeout-ms", "0"),
            BadInput.of("--port 0", "fabric", "start", "--port", "0"),
            BadInput.of("--node Hca1", "fabric", "start", "--node", "Hca1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldNameTheInputOnceInTheErrorLine(final BadInput bad) throws Exception
    {
        final String line = errorLine(bad);

        assertEquals(1, occurrences(line, bad.input()), "'" + bad.input() + "' named once in: " + line);
        if (bad.option() != null)
        {
            assertTrue(bad.option().matcher(line).results().count() <= 1, bad.option() + " named once in: " + line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldSayNoPhraseTwiceInTheErrorLine(final BadInput bad) throws Exception
    {
        assertNoPhraseTwice(errorLine(bad));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldNameTheInputOnceAndSayNoPhraseTwiceInTheJsonMessage(final BadInput bad) throws Exception
    {
        final List<String> args = new ArrayList<>(bad.args());
        args.add("--json");

        final CommandRun run = CommandRun.run(args.toArray(String[]::new));

        assertNotEquals(Main.EXIT_OK, run.exit(), run.out());
        final String message = JSON.readTree(run.out()).get("message").asText();
        assertEquals(1, occurrences(message, bad.input()), "'" + bad.input() + "' named once in: " + message);
        if (bad.option() != null)
        {
            assertTrue(bad.option().matcher(message).results().count() <= 1, bad.option() + " named once in: " + message);
        }
        assertNoPhraseTwice(message);
    }

    /**
     * The first line on stderr of the failing command; rping and cmtime print to the process's stderr as
     * the C tools do, so they run in a child JVM. Both error-line cases read one run of each input: a
     * second run of the same command line would only pay another JVM's start (7 of them, 0.7 to 1 s each,
     * were 40% of the class's time).
     */
    private static String errorLine(final BadInput bad) throws Exception
    {
        final String line = ERROR_LINES.get(bad);
        if (line != null)
        {
            return line;
        }
        final String first = runForErrorLine(bad);
        ERROR_LINES.put(bad, first);
        return first;
    }

    private static String runForErrorLine(final BadInput bad) throws Exception
    {
        final String[] args = bad.args().toArray(String[]::new);
        final int exit;
        final String err;
        if (List.of("rping", "cmtime").contains(args[0]))
        {
            final MainProcess run = MainProcess.run(dir, Map.of(), 50, args);
            exit = run.exit();
            err = run.err();
        }
        else
        {
            final CommandRun run = CommandRun.run(args);
            exit = run.exit();
            err = run.err();
        }
        assertNotEquals(Main.EXIT_OK, exit, err);
        return err.lines().findFirst().orElseThrow(() -> new AssertionError(bad + ": nothing on stderr"));
    }

    private static int occurrences(final String text, final String word)
    {
        int count = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length()))
        {
            count++;
        }
        return count;
    }

    /** No run of {@value #PHRASE_WORDS} words, compared without case and the punctuation around them, appears twice. */
    static void assertNoPhraseTwice(final String line)
    {
        final List<String> words = Arrays.stream(line.toLowerCase(Locale.ROOT).split("\\s+"))
            .map(word -> word.replaceAll("^[\\p{Punct}&&[^-]]+|\\p{Punct}+$", ""))
            .filter(word -> !word.isEmpty()).toList();
        final Set<String> seen = new HashSet<>();
        for (int i = 0; i + PHRASE_WORDS <= words.size(); i++)
        {
            final String phrase = String.join(" ", words.subList(i, i + PHRASE_WORDS));
            if (!seen.add(phrase))
            {
                fail("'" + phrase + "' said twice in: " + line);
            }
        }
    }
}

package dev.rdmacm.acm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.files.text.BoundedTextFile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the options file ({@code ibacm_opts.cfg}), from its
 * bytes, read and applied line by line as {@link AcmOptions#read} does. The contract: the options, every
 * value inside its rule (the SA deadline without overflow), or an {@link IllegalArgumentException} that
 * names the file and the line ({@code FILE:LINE: rule}). Seeds: the options files of the tests.
 */
class AcmOptionsFuzzTest
{
    private static final String SOURCE = "fuzz_opts.cfg";
    private static final Pattern WHERE = Pattern.compile("^fuzz_opts\\.cfg:[1-9][0-9]*: .+", Pattern.DOTALL);

    @FuzzTest
    void shouldApplyOptionsOrNameTheLineAndRule(final byte[] file) throws IOException
    {
        final AcmOptions options = new AcmOptions();
        try
        {
            final List<String> lines = BoundedTextFile.readLines(new ByteArrayInputStream(file), SOURCE,
                BoundedTextFile.CONFIG_MAX_BYTES);
            int number = 0;
            for (final String line : lines)
            {
                options.apply(line, SOURCE + ":" + ++number);
            }
        }
        catch (final IllegalArgumentException ex)
        {
            assertTrue(ex.getMessage() != null && WHERE.matcher(ex.getMessage()).matches(), () -> String.valueOf(ex));
            return;
        }
        assertTrue(options.timeout().toMillis() >= 1 && options.timeout().toMillis() <= AcmOptions.MAX_TIMEOUT_MS);
        assertTrue(options.retries() >= 0 && options.retries() <= AcmOptions.MAX_RETRIES);
        assertTrue(options.saDeadline().toMillis() > 0 && options.saDeadline().toMillis() <= AcmOptions.MAX_SA_DEADLINE_MS);
        assertTrue(options.addrLifetimeNs() >= 0 && options.routeLifetimeNs() >= 0);
        assertTrue(options.serverPort() >= 0 && options.serverPort() <= 65535);
        assertTrue(options.maxClients() >= 1 && options.saDepth() >= 1 && options.saQueueDepth() >= 1);
        assertTrue(options.clientTimeout().toMillis() >= 1);
    }
}

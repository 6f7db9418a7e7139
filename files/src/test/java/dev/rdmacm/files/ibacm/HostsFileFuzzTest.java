package dev.rdmacm.files.ibacm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.files.text.BoundedTextFile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the ibacm hosts file ({@code ibacm_hosts.data}), from
 * its bytes: read as ibacm's files are read ({@link BoundedTextFile}), then parsed strictly and leniently.
 * The contract: a file is either hosts, each with its GID and its line, or an
 * {@link IllegalArgumentException} naming the file and the line ({@code FILE:LINE: rule}); the lenient
 * parse never throws and names the file and the line in every problem. Seeds: the hosts files of the tests.
 */
class HostsFileFuzzTest
{
    private static final Path SOURCE = Path.of("fuzz.hosts");
    private static final Pattern WHERE = Pattern.compile("^fuzz\\.hosts:[1-9][0-9]*: .+", Pattern.DOTALL);

    @FuzzTest
    void shouldParseHostsOrNameTheLineAndRule(final byte[] file) throws IOException
    {
        final List<String> lines;
        try
        {
            lines = BoundedTextFile.readLines(new ByteArrayInputStream(file), SOURCE.toString(),
                BoundedTextFile.DATA_MAX_BYTES);
        }
        catch (final IllegalArgumentException ex)
        {
            assertWhere(ex);
            return;
        }
        final List<String> problems = new ArrayList<>();
        final HostsFile lenient = HostsFile.parseLenient(lines, SOURCE, problems);
        problems.forEach(problem -> assertTrue(WHERE.matcher(problem).matches(), problem));
        assertValid(lenient, lines.size());
        try
        {
            final HostsFile strict = HostsFile.parse(lines, SOURCE);
            assertEquals(List.of(), problems, "the strict parse accepted what the lenient one reported");
            assertEquals(lenient.hosts(), strict.hosts());
        }
        catch (final IllegalArgumentException ex)
        {
            assertWhere(ex);
            assertTrue(problems.contains(ex.getMessage()), "the lenient parse reports the strict error too");
        }
    }

    private static void assertValid(final HostsFile hosts, final int lineCount)
    {
        for (final HostsFile.Host host : hosts.hosts())
        {
            assertNotNull(host.gid());
            assertTrue(!host.address().isEmpty() && host.line() >= 1 && host.line() <= lineCount, host::toString);
            assertTrue(hosts.byName(host.address()).isPresent(), host.address());
            if (host.ip() != null)
            {
                assertTrue(hosts.byAddress(host.ip()).isPresent(), host.address());
            }
        }
    }

    private static void assertWhere(final IllegalArgumentException ex)
    {
        assertTrue(ex.getMessage() != null && WHERE.matcher(ex.getMessage()).matches(), String.valueOf(ex.getMessage()));
    }
}

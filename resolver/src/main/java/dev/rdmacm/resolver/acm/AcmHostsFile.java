package dev.rdmacm.resolver.acm;

import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * ibacm's hosts file ({@code addr_preload acm_hosts}, {@code addr_data_file}): one
 * {@code address GID} pair per line, the address an IPv4 or IPv6 literal or a name, {@code #} lines
 * ignored. ibacm skips lines it cannot read with a log line; so does this reader, through
 * {@code problems}, so that one bad line does not keep the service from starting.
 */
public final class AcmHostsFile
{
    public record Host(AcmAddress address, Gid gid)
    {
    }

    private AcmHostsFile()
    {
    }

    public static List<Host> read(final Path file, final List<String> problems) throws IOException
    {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString(), problems);
    }

    public static List<Host> parse(final List<String> lines, final String fileName, final List<String> problems)
    {
        final List<Host> hosts = new ArrayList<>();
        int number = 0;
        for (final String raw : lines)
        {
            number++;
            if (raw.startsWith("#"))
            {
                continue;
            }
            final String[] words = raw.trim().split("\\s+");
            if (words.length < 2)
            {
                if (!raw.isBlank())
                {
                    problems.add(fileName + ":" + number + ": expected 'address GID', got '" + raw.trim() + "'");
                }
                continue;
            }
            try
            {
                hosts.add(new Host(AcmAddress.parse(words[0]), Gid.parse(words[1])));
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(fileName + ":" + number + ": " + ex.getMessage());
            }
        }
        return hosts;
    }
}

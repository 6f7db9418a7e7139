package dev.rdmacm.files.ibacm;

import dev.rdmacm.files.text.BoundedTextFile;
import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * ibacm's hosts file ({@code ibacm_hosts.data}, what {@code ib_acme -A} writes and ibacm's
 * {@code acm_parse_hosts_file} reads): one {@code address GID} pair per line, the address an IPv4 or
 * IPv6 literal or a name; lines starting with {@code #}, blank lines and extra words after the GID are
 * ignored. Shared by every reader of the format: the route resolver uses it as the neighbour table of
 * an IPoIB fabric that has no IP layer (ibsim), the ACM server as its address preload.
 * <p>
 * {@link #parse} is strict (the first bad line is an {@link IllegalArgumentException} naming the file,
 * the line and the rule); {@link #parseLenient} skips bad lines and reports them, as ibacm does.
 */
public final class HostsFile
{
    /** Compiled once: {@code String.split} with this regular expression compiles it for every line. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern DOTTED_QUAD = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Fa-f:.]+");
    private static final Pattern DOT = Pattern.compile("\\.");

    /**
     * One line.
     *
     * @param address the first word as written.
     * @param ip      the address when it is an IPv4 or IPv6 literal, else null (a name).
     * @param gid     the port GID.
     * @param line    the line number, from 1.
     */
    public record Host(String address, InetAddress ip, Gid gid, int line)
    {
    }

    private final Path source;
    private final List<Host> hosts;

    private HostsFile(final Path source, final List<Host> hosts)
    {
        this.source = source;
        this.hosts = List.copyOf(hosts);
    }

    /** Reads {@code file} strictly, within {@link BoundedTextFile#DATA_MAX_BYTES}. */
    public static HostsFile read(final Path file) throws IOException
    {
        return parse(readLines(file), file);
    }

    /** The lines of a hosts file, read within {@link BoundedTextFile#DATA_MAX_BYTES} and as strict UTF-8. */
    public static List<String> readLines(final Path file) throws IOException
    {
        return BoundedTextFile.readLines(file, BoundedTextFile.DATA_MAX_BYTES);
    }

    public static HostsFile parse(final List<String> lines, final Path source)
    {
        final List<Host> hosts = new ArrayList<>();
        int number = 0;
        for (final String line : lines)
        {
            number++;
            final Host host = parseLine(line, number, source);
            if (host != null)
            {
                hosts.add(host);
            }
        }
        return new HostsFile(source, hosts);
    }

    /** Reads like ibacm: a line it cannot use is reported in {@code problems} and skipped. */
    public static HostsFile parseLenient(final List<String> lines, final Path source, final List<String> problems)
    {
        final List<Host> hosts = new ArrayList<>();
        int number = 0;
        for (final String line : lines)
        {
            number++;
            try
            {
                final Host host = parseLine(line, number, source);
                if (host != null)
                {
                    hosts.add(host);
                }
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(ex.getMessage());
            }
        }
        return new HostsFile(source, hosts);
    }

    private static Host parseLine(final String line, final int number, final Path source)
    {
        final String text = line.strip();
        if (text.isEmpty() || text.startsWith("#"))
        {
            return null;
        }
        final String[] words = WHITESPACE.split(text);
        final String where = source + ":" + number + ": ";
        if (words.length < 2)
        {
            throw new IllegalArgumentException(where + "expected 'address GID', got '" + text + "'");
        }
        final Gid gid;
        try
        {
            gid = Gid.parse(words[1]);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + "'" + words[1] + "' is not a GID: " + ex.getMessage());
        }
        return new Host(words[0], literal(words[0]), gid, number);
    }

    /** An IPv4 or IPv6 literal, or null for a name, as {@code inet_pton} decides (never a DNS lookup). */
    private static InetAddress literal(final String word)
    {
        try
        {
            if (DOTTED_QUAD.matcher(word).matches())
            {
                final String[] parts = DOT.split(word);
                final byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++)
                {
                    final int octet = Integer.parseInt(parts[i]);
                    if (octet > 255)
                    {
                        return null;
                    }
                    bytes[i] = (byte)octet;
                }
                return InetAddress.getByAddress(bytes);
            }
            if (word.indexOf(':') >= 0 && IPV6_CHARACTERS.matcher(word).matches())
            {
                return InetAddress.getByName(word); // a colon makes it a literal: no lookup
            }
        }
        catch (final UnknownHostException ex)
        {
            return null;
        }
        return null;
    }

    public Path source()
    {
        return source;
    }

    public List<Host> hosts()
    {
        return hosts;
    }

    /** The first entry for {@code ip}, as ibacm keeps the first of duplicate addresses. */
    public Optional<Host> byAddress(final InetAddress ip)
    {
        for (final Host host : hosts)
        {
            if (ip.equals(host.ip()))
            {
                return Optional.of(host);
            }
        }
        return Optional.empty();
    }

    /** The first entry whose address is {@code name} as written (names and literals alike). */
    public Optional<Host> byName(final String name)
    {
        for (final Host host : hosts)
        {
            if (host.address().equals(name))
            {
                return Optional.of(host);
            }
        }
        return Optional.empty();
    }

    /** The first IP entry for {@code gid}. */
    public Optional<Host> byGid(final Gid gid)
    {
        for (final Host host : hosts)
        {
            if (host.ip() != null && host.gid().equals(gid))
            {
                return Optional.of(host);
            }
        }
        return Optional.empty();
    }
}

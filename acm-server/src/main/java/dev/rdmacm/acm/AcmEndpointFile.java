package dev.rdmacm.acm;

import dev.rdmacm.files.text.BoundedTextFile;
import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The endpoint file: ibacm's {@code ibacm_addr.cfg} ({@code address device port pkey} per line,
 * {@code #} comments, addresses on the same device, port and P_Key forming one endpoint), extended
 * with two columns ibacm ignores, the port's {@code gid} and {@code lid}, because this service cannot
 * ask a device for them on a machine without RDMA hardware:
 * <pre>
 *   # address     device  port  pkey    gid                  lid
 *   192.0.2.2     mlx5_0  1     0xffff  fe80::2:c903:0:1     1
 *   node-a        mlx5_0  1     0xffff  fe80::2:c903:0:1     1
 * </pre>
 * Endpoints are numbered from 1 in the order of their first line, which is the index EP_QUERY and
 * PERF_QUERY use. The number of ports of a device is the highest port number given for it. An
 * address names one endpoint (a second endpoint for it is an error, where ibacm would answer from
 * whichever it met first), and the LID is a unicast one, 1..0xbfff, except 0 beside a RoCE v2 GID.
 */
public final class AcmEndpointFile
{
    /** Compiled once: {@code String.split} with this regular expression compiles it for every line. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private AcmEndpointFile()
    {
    }

    /**
     * Whether {@code lines} are this device-less format: at least one line, and every line that is not
     * blank or a comment has the {@code gid lid} columns. ibacm's own 4-column file is not: its lines
     * name endpoints of an attached port ({@link AcmPortEndpoints}).
     */
    public static boolean isDeviceless(final List<String> lines)
    {
        boolean any = false;
        for (final String raw : lines)
        {
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            if (WHITESPACE.split(line).length < 6)
            {
                return false;
            }
            any = true;
        }
        return any;
    }

    /** The highest unicast LID; 0xc000 and above are multicast, 0 is no LID. */
    static final int MAX_UNICAST_LID = 0xbfff;

    public static List<AcmEndpoint> read(final Path file) throws IOException
    {
        return parse(readLines(file), file.toString());
    }

    /** The lines of an endpoint file, read within {@link BoundedTextFile#CONFIG_MAX_BYTES} as strict UTF-8. */
    public static List<String> readLines(final Path file) throws IOException
    {
        return BoundedTextFile.readLines(file, BoundedTextFile.CONFIG_MAX_BYTES);
    }

    /** A RoCE v2 GID of an IPv4 address ({@code ::ffff:a.b.c.d}), whose port has no LID. */
    private static boolean isRoceV2Ipv4(final Gid gid)
    {
        return gid.subnetPrefix() == 0 && (gid.interfaceId() >>> 32) == 0xffffL;
    }

    public static List<AcmEndpoint> parse(final List<String> lines, final String fileName)
    {
        record Key(String device, int port, int pkey)
        {
        }
        record Line(String where, String address, Key key, Gid gid, int lid)
        {
        }
        final List<Line> parsed = new ArrayList<>();
        final Map<String, Integer> portCount = new LinkedHashMap<>();
        int number = 0;
        for (final String raw : lines)
        {
            number++;
            final String where = fileName + ":" + number;
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] words = WHITESPACE.split(line);
            if (words.length < 6)
            {
                throw new IllegalArgumentException(where + ": expected 'address device port pkey gid lid', got '"
                    + line + "'");
            }
            final int port = number(words[2], where, "port", 1, 255);
            final int pkey = number(words[3], where, "pkey", 0, 0xffff);
            final Gid gid;
            try
            {
                gid = Gid.parse(words[4]);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(where + ": " + ex.getMessage());
            }
            final int lid = number(words[5], where, "lid", 0, MAX_UNICAST_LID);
            if (lid == 0 && !isRoceV2Ipv4(gid))
            {
                throw new IllegalArgumentException(where + ": lid 0 is no port's LID: an InfiniBand port has a unicast LID "
                    + "1..0xbfff (only a RoCE GID, ::ffff:a.b.c.d, goes with lid 0)");
            }
            final AcmAddress address;
            try
            {
                address = AcmAddress.parse(words[0]);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(where + ": " + ex.getMessage());
            }
            parsed.add(new Line(where, words[0], new Key(words[1], port, pkey), gid, lid));
            portCount.merge(words[1], port, Math::max);
        }
        final Map<Key, AcmEndpoint> endpoints = new LinkedHashMap<>();
        final Map<AcmAddress, Line> firstLine = new java.util.HashMap<>();
        for (final Line line : parsed)
        {
            final AcmAddress address = AcmAddress.parse(line.address());
            final Line earlier = firstLine.putIfAbsent(address, line);
            if (earlier != null && !earlier.key().equals(line.key()))
            {
                throw new IllegalArgumentException(line.where() + ": address " + line.address() + " already names "
                    + earlier.key().device() + " port " + earlier.key().port() + " pkey 0x"
                    + Integer.toHexString(earlier.key().pkey()) + " (" + earlier.where()
                    + "): an address names one endpoint");
            }
            final AcmEndpoint endpoint = endpoints.computeIfAbsent(line.key(), key -> new AcmEndpoint(
                endpoints.size() + 1, key.device(), key.port(), portCount.get(key.device()), key.pkey(),
                line.gid(), line.lid()));
            if (!endpoint.gid().equals(line.gid()) || endpoint.lid() != line.lid())
            {
                throw new IllegalArgumentException(line.where() + ": " + line.key().device() + " port "
                    + line.key().port() + " was given gid " + endpoint.gid() + " lid " + endpoint.lid()
                    + " on an earlier line, not " + line.gid() + " lid " + line.lid());
            }
            endpoint.addAddress(address, line.where());
        }
        return List.copyOf(endpoints.values());
    }

    static int number(final String text, final String where, final String what, final int min, final int max)
    {
        final long value;
        try
        {
            value = Long.decode(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": " + what + " '" + text + "' is not a number");
        }
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(where + ": " + what + " " + text + " is outside " + min + ".." + max);
        }
        return (int)value;
    }
}

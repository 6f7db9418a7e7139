package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Ipv6Text;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpType;

import dev.rdmacm.files.ibacm.HostsFile;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * An address as the ACM protocol names one: a type ({@link AcmEpType}) and its value. IPv4, IPv6,
 * GID and LID values are kept as two longs holding the network-order bytes (IPv4 in the high word's
 * top 32 bits, a LID in its top 16) so that equal addresses are equal keys; a NAME keeps its text.
 */
public record AcmAddress(int type, long high, long low, String name)
{
    /** Compiled once, not for every address as {@code String.split} would. */
    private static final Pattern DOT = Pattern.compile("\\.");

    public static AcmAddress ipv4(final int address)
    {
        return new AcmAddress(AcmEpType.ADDRESS_IP, (address & 0xffff_ffffL) << 32, 0, null);
    }

    public static AcmAddress ipv6(final byte[] address)
    {
        final Gid bytes = Gid.fromBytes(address, 0);
        return new AcmAddress(AcmEpType.ADDRESS_IP6, bytes.subnetPrefix(), bytes.interfaceId(), null);
    }

    public static AcmAddress gid(final Gid gid)
    {
        return new AcmAddress(AcmEpType.ADDRESS_GID, gid.subnetPrefix(), gid.interfaceId(), null);
    }

    public static AcmAddress lid(final int lid)
    {
        return new AcmAddress(AcmEpType.ADDRESS_LID, (long)(lid & 0xffff) << 48, 0, null);
    }

    public static AcmAddress name(final String name)
    {
        return new AcmAddress(AcmEpType.NAME, 0, 0, name);
    }

    /**
     * Reads the address an entry carries; IP, IP6 and NAME only (what clients send as SOURCE or
     * DEST; GID and LID entries are accepted too since ibacm accepts types 1..5).
     */
    public static AcmAddress of(final AcmEpAddrData entry)
    {
        final int info = entry.infoOffset();
        return switch (entry.type())
        {
            case AcmEpType.ADDRESS_IP -> ipv4(entry.ipv4());
            case AcmEpType.NAME -> name(entry.name());
            case AcmEpType.ADDRESS_LID -> lid((entry.ipv4() >>> 16) & 0xffff);
            default ->
            {
                final byte[] bytes = new byte[AcmEpAddrData.INFO_LENGTH];
                entry.getInfo(bytes);
                final Gid value = Gid.fromBytes(bytes, 0);
                yield new AcmAddress(entry.type(), value.subnetPrefix(), value.interfaceId(), null);
            }
        };
    }

    /** The address of a hosts-file line: its IP literal, or its first word as a name. */
    public static AcmAddress of(final HostsFile.Host host)
    {
        if (host.ip() instanceof Inet4Address v4)
        {
            final byte[] b = v4.getAddress();
            return ipv4(((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff));
        }
        if (host.ip() instanceof Inet6Address v6)
        {
            return ipv6(v6.getAddress());
        }
        return name(host.address());
    }

    /**
     * Parses text as ibacm's hosts and address files do: an IPv4 literal, else an IPv6 literal,
     * else a name (at most 63 bytes).
     */
    public static AcmAddress parse(final String text)
    {
        final int ipv4 = parseIpv4(text);
        if (ipv4 != -1 || "255.255.255.255".equals(text))
        {
            return ipv4(ipv4);
        }
        if (text.indexOf(':') >= 0)
        {
            return ipv6(Ipv6Text.parse(text, "address"));
        }
        if (text.getBytes(StandardCharsets.US_ASCII).length >= AcmEpAddrData.INFO_LENGTH)
        {
            throw new IllegalArgumentException("name '" + text + "' is longer than 63 bytes");
        }
        return name(text);
    }

    /** The IPv4 address in network order, or -1 when {@code text} is not a dotted quad. */
    static int parseIpv4(final String text)
    {
        final String[] octets = DOT.split(text, -1);
        if (octets.length != 4)
        {
            return -1;
        }
        int value = 0;
        for (final String octet : octets)
        {
            if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(c -> c >= '0' && c <= '9'))
            {
                return -1;
            }
            final int number = Integer.parseInt(octet);
            if (number > 255)
            {
                return -1;
            }
            value = (value << 8) | number;
        }
        return value;
    }

    /** The IPv4 address as an int in network order (type IP only). */
    public int ipv4Value()
    {
        return (int)(high >>> 32);
    }

    /** The IP address of an IP or IP6 address, or null for a name, GID or LID. */
    public InetAddress inetAddress()
    {
        try
        {
            return switch (type)
            {
                case AcmEpType.ADDRESS_IP ->
                {
                    final int a = ipv4Value();
                    yield InetAddress.getByAddress(new byte[] {(byte)(a >>> 24), (byte)(a >>> 16), (byte)(a >>> 8), (byte)a});
                }
                case AcmEpType.ADDRESS_IP6 -> InetAddress.getByAddress(bytes16());
                default -> null;
            };
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("4 or 16 bytes are always an address", ex);
        }
    }

    /** The 16 bytes of an IPv6 address or GID. */
    public byte[] bytes16()
    {
        return new Gid(high, low).toBytes();
    }

    /** Writes type and info into {@code entry} (flags untouched). */
    public void writeTo(final AcmEpAddrData entry)
    {
        entry.type(type);
        switch (type)
        {
            case AcmEpType.ADDRESS_IP -> entry.ipv4(ipv4Value());
            case AcmEpType.NAME -> entry.name(name);
            case AcmEpType.ADDRESS_LID -> entry.info(new byte[] {(byte)(high >>> 56), (byte)(high >>> 48)});
            default -> entry.info(bytes16());
        }
    }

    @Override
    public String toString()
    {
        return switch (type)
        {
            case AcmEpType.ADDRESS_IP ->
            {
                final int a = ipv4Value();
                yield (a >>> 24) + "." + ((a >>> 16) & 0xff) + "." + ((a >>> 8) & 0xff) + "." + (a & 0xff);
            }
            case AcmEpType.NAME -> name;
            case AcmEpType.ADDRESS_LID -> "lid " + ((high >>> 48) & 0xffff);
            default -> Ipv6Text.format(bytes16());
        };
    }
}

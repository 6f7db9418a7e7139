package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A netdev of the soft-RoCE guest as {@code ip -j} and {@code /sys/class/net} show it: its IPv4
 * address (and the RoCE v2 GID the kernel derives from it), its MAC, its neighbours and its packet
 * counters.
 */
record GuestNetdev(String name)
{
    /** The one IPv4 address {@code ip -j -4 address show} lists on this netdev. */
    InetAddress ipv4Address()
    {
        final List<?> addresses = (List<?>)PeerTools.jsonObject("ip", "-j", "-4", "address", "show", "dev", name).get("addr_info");
        if (addresses == null || addresses.size() != 1)
        {
            throw new AssertionError("ip -4 address show dev " + name + " lists " + addresses + ", not one address");
        }
        try
        {
            return InetAddress.getByName((String)((Map<?, ?>)addresses.getFirst()).get("local"));
        }
        catch (final UnknownHostException ex)
        {
            throw new AssertionError("ip printed an address Java cannot parse: " + addresses, ex);
        }
    }

    /** The IPv4-mapped GID of {@link #ipv4Address()}, {@code ::ffff:a.b.c.d}, as the kernel puts it in the GID table. */
    Gid ipv4Gid()
    {
        return Gid.ipv4Mapped(ByteBuffer.wrap(((Inet4Address)ipv4Address()).getAddress()).getInt());
    }

    /** The MAC, {@code 16:5a:16:6b:a6:6f}. */
    String mac()
    {
        return (String)PeerTools.jsonObject("ip", "-j", "link", "show", "dev", name).get("address");
    }

    /** The link-layer address of {@code address} in this netdev's neighbour table, or null without an entry. */
    String neighbourMac(final InetAddress address)
    {
        final List<Map<String, Object>> entries = PeerTools.jsonArray("ip", "-j", "neigh", "show", address.getHostAddress(), "dev", name);
        return entries.isEmpty() ? null : (String)entries.getFirst().get("lladdr");
    }

    void flushNeighbours()
    {
        PeerTools.output("ip", "neigh", "flush", "dev", name);
    }

    /** {@code /sys/class/net/NAME/statistics/COUNTER}, e.g. {@code rx_packets}. */
    long counter(final String counter)
    {
        final Path file = Path.of("/sys/class/net", name, "statistics", counter);
        try
        {
            return Long.parseLong(Files.readString(file).strip());
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read " + file + ": " + ex, ex);
        }
    }
}

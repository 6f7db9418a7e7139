package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the service learns of the port it is attached to, as ibacm learns it from the device: on a
 * verbs port the sysfs P_Key and GID tables, and the IP addresses of its netdevs (the
 * RoCE GIDs' netdevs, or the IPoIB netdevs, {@code type} 32, whose hardware address holds one of the
 * port's GIDs, with their {@code pkey}); on ibsim, which has no sysfs and no IP layer, the simulated
 * HCA's GID and LID under umad2sim's device name {@code ibsim0}, port 1, with the default partition's
 * full-member P_Key (OpenSM's default partition policy gives every port exactly that).
 */
public final class AcmPortDiscovery
{
    /** The device name umad2sim gives its simulated HCA, which endpoint files on ibsim name. */
    public static final String IBSIM_DEVICE = "ibsim0";
    private static final int ARPHRD_INFINIBAND = 32;
    private static final int DEFAULT_PKEY = 0xffff;

    private AcmPortDiscovery()
    {
    }

    public static AcmPort ofIbsim(final LocalPort port)
    {
        return new AcmPort(IBSIM_DEVICE, 1, 1, port.gid(), port.lid(), List.of(DEFAULT_PKEY), List.of());
    }

    /**
     * A verbs port as sysfs describes it. Its GID is index 0 on InfiniBand; on RoCE, where the GID
     * names an address, the first RoCE v2 GID of an IPv4 address, else the first RoCE v2 GID.
     *
     * @param deviceName the device, or null for the first one sysfs lists.
     * @param classNet   {@code /sys/class/net}, where IPoIB netdevs are found.
     */
    public static AcmPort ofVerbs(final RdmaDevices devices, final String deviceName, final int portNum, final Path classNet)
        throws IOException
    {
        final RdmaDevice device = device(devices, deviceName)
            .orElseThrow(() -> new IOException("no RDMA device " + (deviceName == null ? "" : deviceName + " ") + "in " +
                devices.source()));
        final RdmaPort rdmaPort = port(device, portNum)
            .orElseThrow(() -> new IOException(device.name() + " has no port " + portNum + " in " + devices.source()));
        if (rdmaPort.gids().isEmpty())
        {
            throw new IOException(device.name() + " port " + portNum + " has no valid GID in " + devices.source());
        }
        final List<Integer> pkeys = rdmaPort.pkeys().stream().map(PkeyEntry::pkey).toList();
        final List<AcmPort.NetdevAddress> addresses = new ArrayList<>();
        final Gid gid;
        if (rdmaPort.linkLayer() == LinkLayer.ETHERNET)
        {
            final Set<String> netdevs = new LinkedHashSet<>();
            rdmaPort.gids().stream().map(GidEntry::netdev).forEach(n -> n.ifPresent(netdevs::add));
            for (final String netdev : netdevs)
            {
                addresses.addAll(addressesOf(netdev, DEFAULT_PKEY));
            }
            gid = rdmaPort.gids().stream().filter(g -> g.type() == GidType.ROCE_V2 && g.gid().isIpv4Mapped()).findFirst()
                .or(() -> rdmaPort.gids().stream().filter(g -> g.type() == GidType.ROCE_V2).findFirst())
                .orElse(rdmaPort.gids().getFirst()).gid();
        }
        else
        {
            final Set<Gid> gids = new LinkedHashSet<>();
            rdmaPort.gids().forEach(g -> gids.add(g.gid()));
            for (final IpoibNetdev netdev : ipoibNetdevs(classNet))
            {
                if (gids.contains(netdev.gid()))
                {
                    addresses.addAll(addressesOf(netdev.name(), netdev.pkey()));
                }
            }
            gid = rdmaPort.gids().getFirst().gid();
        }
        return new AcmPort(device.name(), portNum, device.ports().size(), gid, rdmaPort.lid(), pkeys, addresses);
    }

    /** Whether the port is RoCE, which has no SA: the kernel CM builds its routes itself. */
    public static boolean isRoce(final RdmaDevices devices, final String deviceName, final int portNum)
    {
        return device(devices, deviceName).flatMap(d -> port(d, portNum)).map(p -> p.linkLayer() == LinkLayer.ETHERNET)
            .orElse(false);
    }

    /** The device named, or the first one for null. */
    private static Optional<RdmaDevice> device(final RdmaDevices devices, final String deviceName)
    {
        return deviceName == null ? devices.devices().stream().findFirst() : devices.device(deviceName);
    }

    private static Optional<RdmaPort> port(final RdmaDevice device, final int portNum)
    {
        return device.ports().stream().filter(p -> p.number() == portNum).findFirst();
    }

    private record IpoibNetdev(String name, Gid gid, int pkey)
    {
    }

    /** The IPoIB netdevs of {@code classNet}: hardware type 32, the GID in bytes 4..19 of the address. */
    private static List<IpoibNetdev> ipoibNetdevs(final Path classNet) throws IOException
    {
        final List<IpoibNetdev> netdevs = new ArrayList<>();
        if (!Files.isDirectory(classNet))
        {
            return netdevs;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(classNet))
        {
            for (final Path entry : entries)
            {
                final String type = read(entry.resolve("type"));
                if (type == null || !type.equals(Integer.toString(ARPHRD_INFINIBAND)))
                {
                    continue;
                }
                final String address = read(entry.resolve("address"));
                final String pkey = read(entry.resolve("pkey"));
                final String[] octets = address == null ? new String[0] : address.split(":");
                if (octets.length != 20 || pkey == null)
                {
                    continue;
                }
                final byte[] raw = new byte[16];
                for (int i = 0; i < 16; i++)
                {
                    raw[i] = (byte)Integer.parseInt(octets[4 + i], 16);
                }
                netdevs.add(new IpoibNetdev(entry.getFileName().toString(), Gid.fromBytes(raw, 0),
                    Integer.decode(pkey.startsWith("0x") ? pkey : "0x" + pkey)));
            }
        }
        return netdevs;
    }

    private static String read(final Path file)
    {
        try
        {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /** The netdev's addresses without their scope (ibacm prints them with inet_ntop, which has none). */
    private static List<AcmPort.NetdevAddress> addressesOf(final String netdev, final int pkey) throws IOException
    {
        final NetworkInterface nic;
        try
        {
            nic = NetworkInterface.getByName(netdev);
        }
        catch (final SocketException ex)
        {
            throw new IOException("cannot list the addresses of " + netdev + ": " + ex.getMessage(), ex);
        }
        final List<AcmPort.NetdevAddress> addresses = new ArrayList<>();
        if (nic == null)
        {
            return addresses;
        }
        for (final InetAddress address : Collections.list(nic.getInetAddresses()))
        {
            addresses.add(new AcmPort.NetdevAddress(InetAddress.getByAddress(address.getAddress()), pkey, netdev));
        }
        return addresses;
    }
}

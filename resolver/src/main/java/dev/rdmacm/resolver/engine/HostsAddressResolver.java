package dev.rdmacm.resolver.engine;

import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.netlink.LinkMessage;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.NetworkType;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.spi.HostsNeighbours;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * {@code rdma_resolve_addr} on an IPoIB fabric whose neighbour table is an ibacm hosts file: the
 * kernel's steps with the hosts file answering where the IP stack would. A source must be listed
 * with the local port's GID (else EADDRNOTAVAIL, or ENODEV when it is listed with another GID); the
 * wildcard source becomes the first address listed with the local GID (the route's preferred
 * source); a destination that is not listed is a neighbour that never answers, which the event loop
 * turns into ETIMEDOUT at the deadline. The P_Key is the default partition's, as the broadcast address
 * of an IPoIB netdev created without a P_Key carries it.
 */
public final class HostsAddressResolver implements AddressRules
{
    private static final int IPOIB_BROADCAST_QPN = 0xffffff;

    private final HostsFile hosts;
    private final RdmaPortBinding localPort;

    /**
     * A resolver whose neighbour table is the hosts file.
     *
     * @param neighbours the hosts file and the local port whose neighbour table it stands in for.
     */
    public HostsAddressResolver(final HostsNeighbours neighbours)
    {
        this.hosts = neighbours.hosts();
        this.localPort = neighbours.localPort();
    }

    @Override
    public AddressResolver.BoundSource bindSource(final InetAddress source, final ResolutionTrace trace)
        throws ResolutionFailure
    {
        final long start = System.nanoTime();
        final Optional<HostsFile.Host> host = hosts.byAddress(source);
        if (host.isEmpty())
        {
            trace.record("local address", start, source.getHostAddress() + " is not in " + hosts.source());
            throw new ResolutionFailure(Errno.EADDRNOTAVAIL, "source " + source.getHostAddress() + " is not listed in " +
                hosts.source());
        }
        if (!host.get().gid().equals(localPort.gid()))
        {
            trace.record("gid match", start, source.getHostAddress() + " is " + host.get().gid() + ", not local");
            throw new ResolutionFailure(Errno.ENODEV, "source " + source.getHostAddress() + " has GID " +
                host.get().gid() + " (" + hosts.source() + ":" + host.get().line() + "); the local port is " +
                localPort.gid());
        }
        trace.record("local address", start, source.getHostAddress() + " " + host.get().gid() + " (" +
            hosts.source() + ":" + host.get().line() + ")");
        return new AddressResolver.BoundSource(0, localPort);
    }

    @Override
    public int attempt(final AddressQuery p) throws ResolutionFailure
    {
        if (p.anyOrLoopbackDestination)
        {
            return 0;
        }
        long start = System.nanoTime();
        if (p.source == null)
        {
            final Optional<HostsFile.Host> local = hosts.hosts().stream()
                .filter(host -> host.gid().equals(localPort.gid()) && sameFamily(host.ip(), p.destination))
                .findFirst();
            if (local.isEmpty())
            {
                throw new ResolutionFailure(Errno.EADDRNOTAVAIL, "no address of the family of " +
                    p.destination.getHostAddress() + " is listed for the local GID " + localPort.gid() + " in " +
                    hosts.source());
            }
            p.effectiveSource = local.get().ip();
            p.trace.record("route", start, p.destination.getHostAddress() + " src " +
                p.effectiveSource.getHostAddress() + " (hosts file)");
        }
        else
        {
            p.effectiveSource = p.source;
        }
        start = System.nanoTime();
        final Optional<HostsFile.Host> neighbour = hosts.byAddress(p.destination);
        if (neighbour.isEmpty())
        {
            p.trace.record("neighbour", start, p.destination.getHostAddress() + " not in " + hosts.source());
            if (p.waitingOn == null)
            {
                p.waitStartNanos = System.nanoTime();
            }
            p.waitingOn = new NeighbourKey(0, p.destination);
            return Errno.ENODATA;
        }
        p.destinationHardwareAddress = ipoibAddress(0, neighbour.get().gid());
        p.trace.record("neighbour", start, p.destination.getHostAddress() + " lladdr " + neighbour.get().gid() +
            " (" + hosts.source() + ":" + neighbour.get().line() + ")");
        return 0;
    }

    @Override
    public AddressResolution complete(final AddressQuery p)
    {
        final long start = System.nanoTime();
        final Gid sgid = localPort.gid();
        final boolean loopback = p.anyOrLoopbackDestination;
        final Gid dgid = loopback ? sgid : GidDerivation.ipoibGid(p.destinationHardwareAddress);
        final InetAddress source = loopback ? (p.source != null ? p.source : AddressResolver.loopbackOf(p.destination)) :
            p.effectiveSource;
        p.trace.record("gid match", start, localPort + (loopback ? " (loopback: DGID = SGID)" : ""));
        final byte[] broadcast = ipoibAddress(IPOIB_BROADCAST_QPN, new Gid(0xff12_401b_0000_0000L |
            ((long)localPort.pkey().value() << 16), 0x0000_0000_ffff_ffffL));
        return new AddressResolution(source, p.destination, loopback, 0, null, LinkMessage.ARPHRD_INFINIBAND, null,
            NetworkType.IB, 0, HardwareAddress.of(ipoibAddress(0, sgid)), HardwareAddress.of(broadcast),
            loopback ? HardwareAddress.NONE : HardwareAddress.of(p.destinationHardwareAddress), sgid, dgid, localPort.pkey(), localPort,
            p.trace.steps());
    }

    /** A 20-byte IPoIB hardware address: flags and QPN, then the GID. */
    private static byte[] ipoibAddress(final int qpn, final Gid gid)
    {
        final byte[] address = new byte[GidDerivation.IPOIB_HARDWARE_ADDRESS_LENGTH];
        address[1] = (byte)(qpn >>> 16);
        address[2] = (byte)(qpn >>> 8);
        address[3] = (byte)qpn;
        System.arraycopy(gid.toBytes(), 0, address, GidDerivation.IPOIB_GID_OFFSET, Gid.LENGTH);
        return address;
    }

    private static boolean sameFamily(final InetAddress a, final InetAddress b)
    {
        return a != null && (a instanceof Inet4Address) == (b instanceof Inet4Address);
    }
}

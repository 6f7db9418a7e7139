package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MtuCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;

/**
 * One end of an RC connection in the soft-RoCE guest: a PD, a CQ (on a completion channel when
 * asked), an RC QP, and a registered region the peer may write and read, on one of the
 * {@link SoftRoceGuest}'s devices, addressed by the RoCE v2 GID of its netdev's IPv4 address.
 * Every transition the QP makes is recorded in {@link #transitions()}.
 */
final class RcEndpoint implements AutoCloseable
{
    static final int REMOTE_ACCESS = IbvConstants.IBV_ACCESS_REMOTE_WRITE | IbvConstants.IBV_ACCESS_REMOTE_READ;
    static final int REGION_ACCESS = IbvConstants.IBV_ACCESS_LOCAL_WRITE | REMOTE_ACCESS;

    /** One step the QP took, as its listener saw it. */
    record Transition(QpState from, QpState to, int attrMask)
    {
    }

    final String device;
    final Gid gid;
    final int sgidIndex;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue cq;
    final RcQueuePair qp;
    final MemoryRegion region;
    private final List<Transition> transitions = new ArrayList<>();

    /**
     * @param withChannel whether the CQ raises events on a completion channel.
     */
    RcEndpoint(final VerbsContext context, final String netdev, final int cqEntries, final QueuePairCapabilities capabilities,
        final long regionBytes, final boolean withChannel)
    {
        device = context.deviceName();
        gid = new GuestNetdev(netdev).ipv4Gid();
        sgidIndex = new SysfsPort(device, PORT).gidIndex(gid.toLongForm(), GidType.ROCE_V2.text());
        pd = context.allocateProtectionDomain();
        channel = withChannel ? context.createCompletionChannel() : null;
        cq = context.createCompletionQueue(cqEntries, channel);
        qp = pd.createRcQueuePair(cq, cq, capabilities, (q, from, to, mask) -> transitions.add(new Transition(from, to, mask)));
        region = pd.allocateMemoryRegion(regionBytes, REGION_ACCESS);
    }

    /** The path to {@code remote}'s GID from this side's SGID, as {@code ibv_rc_pingpong} builds it (hop limit 1). */
    AddressVector pathTo(final Gid remote, final int hopLimit)
    {
        return new AddressVector(PORT, 0, 0, 0, 0, Optional.of(new AddressVector.GlobalRoute(remote, sgidIndex, hopLimit, 0, 0)));
    }

    /** RESET -> INIT -> RTR -> RTS towards {@code remoteQpn} at {@code remoteGid}. */
    void connect(final Gid remoteGid, final int remoteQpn, final int remotePsn, final int ownPsn, final RcSendParameters rts)
    {
        qp.init(PORT, 0, REMOTE_ACCESS)
            .readyToReceive(new RcReceiveParameters(pathTo(remoteGid, 64), MtuCode.MTU_1024, remoteQpn, remotePsn, 4, 12))
            .readyToSend(rts);
    }

    /** Connects {@code a} and {@code b} to each other with {@code rts}'s timeout and retries, PSNs given. */
    static void connect(final RcEndpoint a, final int aPsn, final RcEndpoint b, final int bPsn, final int timeout, final int retries)
    {
        a.connect(b.gid, b.qp.qpNumber(), bPsn, aPsn, new RcSendParameters(aPsn, timeout, retries, 7, 4));
        b.connect(a.gid, a.qp.qpNumber(), aPsn, bPsn, new RcSendParameters(bPsn, timeout, retries, 7, 4));
    }

    List<Transition> transitions()
    {
        return List.copyOf(transitions);
    }

    /** Closes in the kernel's order: the QP before its CQ and PD, the MR before the PD. */
    @Override
    public void close()
    {
        qp.close();
        cq.close();
        if (channel != null)
        {
            channel.close();
        }
        region.close();
        pd.close();
    }
}

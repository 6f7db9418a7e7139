package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.IbMulticastGid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.multicast.McMemberRecordValue;
import dev.rdmacm.sa.multicast.McMemberRecords;
import dev.rdmacm.sa.multicast.MulticastMemberships;
import dev.rdmacm.ucma.abi.UcmaEventType;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.VerbsException;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code rdma_join_multicast_ex} and {@code rdma_leave_multicast} on the conductor. On InfiniBand
 * ({@code cma_join_ib_multicast}, {@code cma_ib_mc_handler}): the id's checks, the MGID
 * ({@link IbMulticastGid}), the record the kernel sends (the port's IPoIB broadcast group's SL,
 * FlowLabel and TClass; the id's MGID, GID, P_Key and Q_Key), the port's refcounted SA memberships
 * ({@link MulticastMemberships}, one table for the {@link RdmaCm}'s SA client), and the events.
 * <p>
 * The kernel copies the broadcast group's record from the cache IPoIB's own join filled, and fails a
 * join at once with EADDRNOTAVAIL when there is none. With no IPoIB here, the first join of a P_Key asks
 * the SA for that group's record (Get), and a join that waited for it gets MULTICAST_ERROR
 * -EADDRNOTAVAIL if there is none. The SA's answers come back as {@link IdCommand.MulticastAnswered}
 * and {@link IdCommand.BroadcastGroupAnswered}, so every change happens on the conductor's thread.
 * On RoCE ({@code cma_iboe_join_multicast}) the join is local: see {@link #joinRoce}.
 */
final class MulticastPhase
{
    /** An RDMA_PS_UDP (and RDMA_PS_IB) id's Q_Key, rdma_cm's {@code RDMA_UDP_QKEY}. */
    static final long RDMA_UDP_QKEY = IdConnection.RDMA_UDP_QKEY;
    /** The QP number a datagram to a group is sent to ({@code cma_make_mc_event}). */
    static final int MULTICAST_QPN = 0xff_ffff;

    /** The kernel's ENOTSUPP (524), which user space sees as "Unknown error 524". */
    static final int ENOTSUPP = 524;
    /** {@code cma_iboe_join_multicast}'s hop limit for IPv4 under RoCE v2 (measured TTL 64). */
    static final int ROCE_V2_IPV4_HOP_LIMIT = 64;

    private final ConductorProxy conductor;
    private MulticastMemberships memberships;
    private IgmpMemberships igmp;
    /** The IPoIB broadcast group's record by P_Key: null value while asked, absent before. */
    private final Map<Integer, McMemberRecordValue> broadcastGroups = new HashMap<>();
    private final Map<Integer, List<IdMulticast>> waitingForBroadcast = new HashMap<>();

    MulticastPhase(final ConductorProxy conductor)
    {
        this.conductor = conductor;
    }

    /** {@code rdma_join_multicast_ex}: the checks of librdmacm, {@code ucma_process_join} and {@code rdma_join_multicast}. */
    void join(final IdContext c, final InetAddress group, final MulticastJoinFlag flag, final Object context)
        throws RdmaCmException
    {
        final String call = "rdma_join_multicast";
        c.requireNotDestroyed(call);
        final RdmaPortBinding binding = c.binding();
        if (binding == null)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "id is " + c.state + " and has no device: bind or resolve it first", true);
        }
        if (c.state != CmIdState.ADDR_BOUND && c.state != CmIdState.ADDR_RESOLVED)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "id is " + c.state + ", not ADDR_BOUND or ADDR_RESOLVED", true);
        }
        if (!c.isUd())
        {
            throw new RdmaCmException(call, Errno.EINVAL, "id is an RDMA_PS_" + c.portSpace + " id, whose QP is not UD", true);
        }
        if (c.cm.options().connectionManager() == ConnectionManager.KERNEL)
        {
            joinThroughKernel(c, group, flag, context);
            return;
        }
        if (binding.gidType() != GidType.IB)
        {
            joinRoce(c, group, flag, context, binding);
            return;
        }
        final SaClient sa = c.cm.options().sa();
        if (sa == null)
        {
            throw new RdmaCmException(call, Errno.ENOSYS, "no SA to join a multicast group with (RdmaCm.Options.sa)", true);
        }
        final int pKey = pKey(binding);
        final Gid mgid = IbMulticastGid.of(group, c.portSpace, scope(c), pKey);
        final IdMulticast mc = new IdMulticast(c, group, flag, context, mgid);
        c.multicasts.add(mc);
        final McMemberRecordValue broadcast = broadcastGroups.get(pKey);
        if (broadcast != null)
        {
            start(sa, mc, broadcast);
            return;
        }
        final boolean asked = broadcastGroups.containsKey(pKey);
        waitingForBroadcast.computeIfAbsent(pKey, key -> new ArrayList<>()).add(mc);
        if (!asked)
        {
            broadcastGroups.put(pKey, null);
            McMemberRecords.group(sa, broadcastMgid(pKey), McMemberRecords.KERNEL_TIMEOUT).whenComplete((record, failure) ->
                conductor.broadcastGroupAnswered(pKey, record, failure));
        }
    }

    /**
     * The join through the kernel's CM ({@link ConnectionManager#KERNEL}): JOIN_MCAST on the id's kernel id
     * ({@link KernelMemberships}, made at the first join). The kernel makes the MGID, asks the SA or joins on the
     * netdev, and answers with MULTICAST_JOIN or MULTICAST_ERROR ({@link #onKernelEvent}); its refusal is the call's.
     */
    private static void joinThroughKernel(final IdContext c, final InetAddress group, final MulticastJoinFlag flag,
        final Object context) throws RdmaCmException
    {
        final String call = "rdma_join_multicast";
        if (c.kernelGroups == null)
        {
            c.kernelGroups = KernelMemberships.open(c, c.cm.managers().kernelCm(call), call);
        }
        final IdMulticast mc = new IdMulticast(c, group, flag, context, null);
        c.kernelGroups.join(mc);
        c.multicasts.add(mc);
        c.transition(c.state, () -> "join " + group.getHostAddress() + " (" + flag + ") through " + c.cm.managers().text() +
            " (kernel id " + c.kernelGroups.handle() + ", membership " + mc.kernelHandle + ")");
    }

    /**
     * The kernel's MULTICAST_JOIN or MULTICAST_ERROR for a membership ({@code ucma_event_handler}), on the conductor:
     * librdmacm's {@code ucma_process_join}, the QP attached to the kernel's MGID and MLID unless the join is
     * send-only (an attach that fails turns the event into MULTICAST_ERROR with status -1), and the event with the
     * kernel's {@code param.ud}. A membership that failed stays the id's until it is left, as the kernel's does.
     */
    static void onKernelEvent(final IdMulticast mc, final KernelEvent event)
    {
        final IdContext c = mc.id;
        if (mc.left || c.state == CmIdState.DESTROYING)
        {
            return;
        }
        if (event.type() != UcmaEventType.MULTICAST_JOIN || event.ud().isEmpty())
        {
            c.deliver(new CmEvent.MulticastError(c.id, event.status(), mc.group, mc.context));
            return;
        }
        final UdParameters ud = event.ud().get();
        final AddressVector ah = ud.ahAttr();
        if (!attach(mc, ah.grh().map(AddressVector.GlobalRoute::dgid).orElse(Gid.ZERO), ah.dlid()))
        {
            return;
        }
        c.deliver(new CmEvent.MulticastJoin(c.id, mc.group, mc.context, new UdParameters(null, ah, ud.qpNumber(), ud.qkey())));
    }

    /**
     * {@code cma_iboe_join_multicast}: no SA and no MAD. The MGID is {@code cma_iboe_set_mgid}'s, the
     * record the kernel builds (P_Key 0xffff, MLID 0, SL, TClass, flow label and rate 0, hop limit 64 for
     * RoCE v2 and IPv4, else 1), an IPv4 join under RoCE v2 that is not send-only holds the group on the
     * netdev ({@link IgmpMemberships}), and MULTICAST_JOIN is posted at once.
     */
    private void joinRoce(final IdContext c, final InetAddress group, final MulticastJoinFlag flag, final Object context,
        final RdmaPortBinding binding) throws RdmaCmException
    {
        final String call = "rdma_join_multicast";
        if (group.isAnyLocalAddress())
        {
            throw new RdmaCmException(call, Errno.EINVAL, "RoCE has no SA to make a group for " + group.getHostAddress(), true);
        }
        final int ifindex = c.resolution != null ? c.resolution.ifindex() : c.boundIfindex;
        if (ifindex == 0)
        {
            throw new RdmaCmException(call, Errno.ENODEV, "the id is bound to no netdev", true);
        }
        final boolean v4 = group instanceof Inet4Address;
        final boolean v2 = binding.gidType() == GidType.ROCE_V2;
        if (v2 && !v4)
        {
            throw new RdmaCmException(call, ENOTSUPP, "an IPv6 group under RoCE v2 (the kernel's ENOTSUPP)", true);
        }
        final Gid mgid = roceMgid(group, v2);
        final IdMulticast mc = new IdMulticast(c, group, flag, context, mgid);
        if (v4 && v2 && !flag.sendOnly())
        {
            try
            {
                igmp().join(ifindex, (Inet4Address)group);
            }
            catch (final NativeCallException ex)
            {
                throw new RdmaCmException(call, ex.errno(), "joining " + group.getHostAddress() + " on ifindex " + ifindex +
                    ": " + ex.getMessage(), true);
            }
            mc.igmpIfindex = ifindex;
        }
        c.multicasts.add(mc);
        final int hopLimit = v4 && v2 ? ROCE_V2_IPV4_HOP_LIMIT : 1;
        joined(mc, new McMemberRecordValue(mgid, binding.gid(), RDMA_UDP_QKEY, 0, Selector.EXACTLY.code(), 0, 0,
            PKey.DEFAULT, Selector.EXACTLY.code(), 0, 0, 0, 0, 0, hopLimit, 0, flag.joinState()));
    }

    /** {@code cma_iboe_set_mgid}: IPv4 as ::ffff:a.b.c.d (RoCE v2) or ff0e::ffff:a.b.c.d (RoCE v1), IPv6 as it is. */
    static Gid roceMgid(final InetAddress group, final boolean roceV2)
    {
        final byte[] address = group.getAddress();
        if (address.length == Gid.LENGTH)
        {
            return Gid.fromBytes(address, 0);
        }
        final byte[] mgid = new byte[Gid.LENGTH];
        if (!roceV2)
        {
            mgid[0] = (byte)0xff;
            mgid[1] = 0x0e;
        }
        mgid[10] = (byte)0xff;
        mgid[11] = (byte)0xff;
        System.arraycopy(address, 0, mgid, 12, 4);
        return Gid.fromBytes(mgid, 0);
    }

    private IgmpMemberships igmp()
    {
        if (igmp == null)
        {
            igmp = new IgmpMemberships();
        }
        return igmp;
    }

    /** The RdmaCm closes: the netdev memberships go with their sockets. */
    void close()
    {
        if (igmp != null)
        {
            igmp.close();
        }
    }

    /** {@code rdma_leave_multicast}: the group joined by {@code group}'s address; EADDRNOTAVAIL for none (librdmacm). */
    void leave(final IdContext c, final InetAddress group) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_leave_multicast");
        for (final IdMulticast mc : c.multicasts)
        {
            if (mc.group.equals(group))
            {
                c.multicasts.remove(mc);
                drop(mc);
                if (c.id.channel() != null)
                {
                    // LEAVE_MCAST drops the group's events the application has not taken
                    c.id.channel().discard(c.id, event -> event instanceof CmEvent.MulticastJoin j && j.group().equals(group) ||
                        event instanceof CmEvent.MulticastError e && e.group().equals(group));
                }
                return;
            }
        }
        throw new RdmaCmException("rdma_leave_multicast", Errno.EADDRNOTAVAIL, group.getHostAddress() +
            " is not a group " + c.id + " joined", true);
    }

    /** The id goes away ({@code destroy_mc} for each of its groups). */
    void destroyed(final IdContext c)
    {
        for (final IdMulticast mc : c.multicasts)
        {
            drop(mc);
        }
        c.multicasts.clear();
        if (c.kernelGroups != null)
        {
            c.kernelGroups.close();
            c.kernelGroups = null;
        }
    }

    void onAnswer(final MulticastMemberships.Answer answer)
    {
        memberships.onAnswer(answer);
    }

    void onBroadcastGroup(final int pKey, final McMemberRecordValue record, final Throwable failure)
    {
        final List<IdMulticast> waiting = waitingForBroadcast.remove(pKey);
        if (failure != null)
        {
            broadcastGroups.remove(pKey);
        }
        else
        {
            broadcastGroups.put(pKey, record);
        }
        if (waiting == null)
        {
            return;
        }
        for (final IdMulticast mc : waiting)
        {
            if (mc.left)
            {
                continue;
            }
            if (failure != null)
            {
                mc.left = true;
                mc.id.multicasts.remove(mc);
                mc.id.deliver(new CmEvent.MulticastError(mc.id.id, -Errno.EADDRNOTAVAIL, mc.group, mc.context));
                continue;
            }
            start(mc.id.cm.options().sa(), mc, record);
        }
    }

    /** {@code cma_join_ib_multicast}: the broadcast group's record with the id's MGID, GID, P_Key, JoinState and Q_Key. */
    private void start(final SaClient sa, final IdMulticast mc, final McMemberRecordValue broadcast)
    {
        final IdContext c = mc.id;
        final RdmaPortBinding binding = c.binding();
        McMemberRecordValue record = broadcast.withMgid(mc.mgid).withPortGid(binding.gid()).withPKey(pKey(binding))
            .withJoinState(mc.flag.joinState()).withQkey(qkey(c, broadcast));
        long mask = McMemberRecordComponentMask.KERNEL_JOIN;
        if (c.portSpace == PortSpace.IPOIB)
        {
            record = new McMemberRecordValue(record.mgid(), record.portGid(), record.qkey(), record.mlid(),
                Selector.EXACTLY.code(), record.mtu(), record.tClass(), record.pKey(), Selector.EXACTLY.code(),
                record.rate(), record.packetLifeTimeSelector(), record.packetLifeTime(), record.sl(), record.flowLabel(),
                record.hopLimit(), record.scope(), record.joinState());
            mask = McMemberRecordComponentMask.KERNEL_JOIN_IPOIB;
        }
        if (memberships == null)
        {
            memberships = new MulticastMemberships(sa, McMemberRecords.KERNEL_TIMEOUT, conductor::multicastAnswered);
        }
        mc.member = memberships.join(record, mask, new MulticastMemberships.Listener()
        {
            @Override
            public void joined(final McMemberRecordValue group)
            {
                MulticastPhase.joined(mc, group);
            }

            @Override
            public void failed(final int status)
            {
                mc.left = true;
                c.multicasts.remove(mc);
                c.deliver(new CmEvent.MulticastError(c.id, status, mc.group, mc.context));
            }
        });
    }

    /**
     * {@code cma_ib_mc_handler}: a group whose Q_Key is not the id's gives no event (mainline); otherwise
     * librdmacm attaches the id's QP unless the join is send-only (an attach that fails turns the event
     * into MULTICAST_ERROR with status -1), and MULTICAST_JOIN carries the UD parameters.
     */
    private static void joined(final IdMulticast mc, final McMemberRecordValue group)
    {
        final IdContext c = mc.id;
        final long qkey = qkey(c, group);
        if (group.qkey() == 0 || group.qkey() != qkey)
        {
            return;
        }
        final RdmaPortBinding binding = c.binding();
        final AddressVector ah = new AddressVector(binding.port(), group.mlid(), group.sl(), 0, group.rate(),
            Optional.of(new AddressVector.GlobalRoute(group.mgid(), binding.gidIndex(), group.hopLimit(), group.tClass(),
                group.flowLabel())));
        if (!attach(mc, group.mgid(), group.mlid()))
        {
            return;
        }
        c.deliver(new CmEvent.MulticastJoin(c.id, mc.group, mc.context, new UdParameters(null, ah, MULTICAST_QPN, qkey)));
    }

    /**
     * librdmacm's attach of the id's QP to the group, unless the join is send-only or the id has no QP; false, and
     * MULTICAST_ERROR with status -1 delivered instead of the join's event, when {@code ibv_attach_mcast} failed.
     */
    private static boolean attach(final IdMulticast mc, final Gid mgid, final int mlid)
    {
        final IdContext c = mc.id;
        final UdQueuePair qp = c.attachedUdQp;
        if (qp == null || mc.flag.sendOnly())
        {
            return true;
        }
        try
        {
            qp.attachMulticast(mgid, mlid);
            mc.attachedMgid = mgid;
            mc.attachedMlid = mlid;
            return true;
        }
        catch (final VerbsException ex)
        {
            c.deliver(new CmEvent.MulticastError(c.id, -1, mc.group, mc.context));
            return false;
        }
    }

    /**
     * Detaches the QP (librdmacm, before LEAVE_MCAST) and gives the membership back to the port's table, or to the
     * kernel's CM (LEAVE_MCAST).
     */
    private void drop(final IdMulticast mc)
    {
        mc.left = true;
        if (mc.attachedMgid != null && mc.id.attachedUdQp != null && !mc.id.attachedUdQp.isClosed())
        {
            try
            {
                mc.id.attachedUdQp.detachMulticast(mc.attachedMgid, mc.attachedMlid);
            }
            catch (final VerbsException ignored)
            {
                // librdmacm's rdma_leave_multicast returns the detach error after leaving; the kernel leaves anyway
            }
        }
        if (mc.member != null)
        {
            memberships.leave(mc.member);
        }
        if (mc.kernelHandle >= 0)
        {
            mc.id.kernelGroups.leave(mc);
        }
        if (mc.igmpIfindex != 0)
        {
            igmp.leave(mc.igmpIfindex, (Inet4Address)mc.group);
        }
    }

    /** The id's Q_Key: RDMA_UDP_QKEY, or for RDMA_PS_IPOIB the broadcast group's ({@code cma_set_default_qkey}). */
    private static long qkey(final IdContext c, final McMemberRecordValue broadcast)
    {
        return c.portSpace == PortSpace.IPOIB ? broadcast.qkey() : RDMA_UDP_QKEY;
    }

    /** The IPoIB broadcast address's P_Key, full member: the resolution's, else the port's P_Key 0. */
    private static int pKey(final RdmaPortBinding binding)
    {
        return (binding.pkey() == null ? PKey.DEFAULT : binding.pkey().value()) | PKey.FULL_MEMBER_BIT;
    }

    /** The broadcast address's scope nibble (byte 5); IPoIB's default when the id has no resolution. */
    private static int scope(final IdContext c)
    {
        if (c.resolution != null && c.resolution.broadcastAddress().length() >= 20)
        {
            return c.resolution.broadcastAddress().toBytes()[5] & 0xf;
        }
        return IbMulticastGid.DEFAULT_SCOPE;
    }

    /** The IPoIB broadcast group of a P_Key: ff12:401b:PPPP::ffff:ffff. */
    private static Gid broadcastMgid(final int pKey)
    {
        return new Gid(0xff12_401b_0000_0000L | ((long)pKey << 16), 0x0000_0000_ffff_ffffL);
    }
}

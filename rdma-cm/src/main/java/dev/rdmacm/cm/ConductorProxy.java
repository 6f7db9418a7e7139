package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.sa.multicast.McMemberRecordValue;
import dev.rdmacm.sa.multicast.MulticastMemberships;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The conductor's command proxy, in the shape of Aeron's {@code DriverConductorProxy}: one method per
 * command, each building the {@link IdCommand} and handing it to {@link IdConductor#send}. A call's method
 * returns the future its caller waits on; an outcome handed back from another thread returns nothing.
 */
final class ConductorProxy
{
    private final IdConductor conductor;

    ConductorProxy(final IdConductor conductor)
    {
        this.conductor = conductor;
    }

    CompletableFuture<Void> setOption(final RdmaCmId id, final IdOption option)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.SetOption(id, option, reply));
        return reply;
    }

    CompletableFuture<Void> bindIp(final RdmaCmId id, final InetAddress source, final int port)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.BindIp(id, source, port, reply));
        return reply;
    }

    CompletableFuture<Void> bindIb(final RdmaCmId id, final IbSockaddr source)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.BindIb(id, source, reply));
        return reply;
    }

    /** {@code accepted} null: no one waits for the call's own part. */
    void resolveIp(final RdmaCmId id, final InetAddress source, final InetAddress destination, final int sourcePort,
        final int destinationPort, final int timeoutMs, final long startNanos, final AddressQuery early,
        final CompletableFuture<Void> accepted, final CompletableFuture<AddressResolution> completion)
    {
        conductor.send(new IdCommand.ResolveIp(id, source, destination, sourcePort, destinationPort, timeoutMs, startNanos,
            early, accepted, completion));
    }

    /** A caller resolved an id no command had reached, on its own thread: not a command, nothing waits ({@link IdConductor#adopt}). */
    void adopt(final RdmaCmId id)
    {
        conductor.adopt(id);
    }

    /** After a caller destroyed the id itself ({@link CallerDestroy}): the conductor drops it, unasked. */
    void forget(final RdmaCmId id)
    {
        conductor.forget(id);
    }

    /** The conductor's route phase, for a RoCE route a caller builds itself ({@link CallerRoute}). */
    RoutePhase routes()
    {
        return conductor.routes();
    }

    CompletableFuture<Void> resolveIb(final RdmaCmId id, final IbSockaddr source, final IbSockaddr destination)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.ResolveIb(id, source, destination, reply));
        return reply;
    }

    /** {@code accepted} null: no one waits for the call's own part. */
    void resolveRoute(final RdmaCmId id, final int timeoutMs, final boolean askAcm, final CompletableFuture<Void> accepted,
        final CompletableFuture<ResolvedRoute> completion)
    {
        conductor.send(new IdCommand.ResolveRoute(id, timeoutMs, askAcm, accepted, completion));
    }

    CompletableFuture<Void> setIbPath(final RdmaCmId id, final List<byte[]> pathData)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.SetIbPath(id, pathData, reply));
        return reply;
    }

    CompletableFuture<Void> addrinfoBegin(final RdmaCmId id)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.AddrinfoBegin(id, reply));
        return reply;
    }

    /** {@code entries} null: the lookup failed. */
    CompletableFuture<Void> addrinfoEnd(final RdmaCmId id, final List<RdmaAddrInfo> entries)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.AddrinfoEnd(id, entries, reply));
        return reply;
    }

    CompletableFuture<List<RdmaAddrInfo>> addrinfoTake(final RdmaCmId id)
    {
        final CompletableFuture<List<RdmaAddrInfo>> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.AddrinfoTake(id, reply));
        return reply;
    }

    CompletableFuture<Void> writeEvent(final RdmaCmId id, final int status, final long arg)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.WriteEvent(id, status, arg, reply));
        return reply;
    }

    /** {@code rdma_create_qp}'s hand-over: the QP, set up on the caller's thread, becomes the id's; no reply, no wake-up. */
    void attachQp(final RdmaCmId id, final RcQueuePair queuePair)
    {
        conductor.handOver(new IdCommand.AttachRcQp(id, queuePair));
    }

    /** {@code rdma_create_qp}'s hand-over of a UD id's QP; no reply. */
    void attachQp(final RdmaCmId id, final UdQueuePair queuePair)
    {
        conductor.handOver(new IdCommand.AttachUdQp(id, queuePair));
    }

    CompletableFuture<Void> connect(final RdmaCmId id, final ConnectionParameters parameters)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.Connect(id, parameters, reply));
        return reply;
    }

    CompletableFuture<Void> listen(final RdmaCmId id, final int backlog)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.Listen(id, backlog, reply));
        return reply;
    }

    CompletableFuture<Void> accept(final RdmaCmId id, final ConnectionParameters parameters)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.Accept(id, parameters, reply));
        return reply;
    }

    /** {@code rdma_accept}'s {@code rdma_init_qp_attr} of an RC id: what its caller moves the QP with before the REP. */
    CompletableFuture<ConnectResponseMoves> prepareAccept(final RdmaCmId id, final ConnectionParameters parameters)
    {
        final CompletableFuture<ConnectResponseMoves> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.PrepareAccept(id, parameters, reply));
        return reply;
    }

    /** The active side's {@code UCMA_CMD_ACCEPT}: its QP is at RTS, "RTU now". */
    CompletableFuture<Void> readyToUse(final RdmaCmId id)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.ReadyToUse(id, reply));
        return reply;
    }

    /** {@code privateData} is the caller's copy, which the conductor keeps. */
    CompletableFuture<Void> reject(final RdmaCmId id, final byte[] privateData)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.Reject(id, privateData, reply));
        return reply;
    }

    CompletableFuture<Void> disconnect(final RdmaCmId id)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.Disconnect(id, reply));
        return reply;
    }

    /** {@code rdma_destroy_id}'s part on the conductor; no reply (the caller's part needs none). */
    void destroy(final RdmaCmId id)
    {
        conductor.send(new IdCommand.Destroy(id));
    }

    // ---- outcomes handed back by other threads ----

    void connectionEvent(final RdmaCmId id, final CmEvent event, final CmIdState next)
    {
        conductor.send(new IdCommand.ConnectionEvent(id, event, next));
    }

    void rtuSent(final RdmaCmId id, final CompletableFuture<Void> reply)
    {
        conductor.send(new IdCommand.RtuSent(id, reply));
    }

    void connectionRequest(final RdmaCmId listener, final RdmaCmId child, final IdConnection connection,
        final IbCmPeerAddress from, final byte[] privateData)
    {
        conductor.send(new IdCommand.ConnectionRequest(listener, child, connection, from, privateData));
    }

    void acmAnswered(final RdmaCmId id, final PendingRoute route, final byte[] answer, final long startNanos,
        final String addresses)
    {
        conductor.send(new IdCommand.AcmAnswered(id, route, answer, startNanos, addresses));
    }

    CompletableFuture<Void> joinMulticast(final RdmaCmId id, final InetAddress group, final MulticastJoinFlag flag,
        final Object context)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.JoinMulticast(id, group, flag, context, reply));
        return reply;
    }

    CompletableFuture<Void> leaveMulticast(final RdmaCmId id, final InetAddress group)
    {
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        conductor.send(new IdCommand.LeaveMulticast(id, group, reply));
        return reply;
    }

    void multicastAnswered(final MulticastMemberships.Answer answer)
    {
        conductor.send(new IdCommand.MulticastAnswered(answer));
    }

    void broadcastGroupAnswered(final int pKey, final McMemberRecordValue record, final Throwable failure)
    {
        conductor.send(new IdCommand.BroadcastGroupAnswered(pKey, record, failure));
    }

    void saAnswered(final RdmaCmId id, final PendingRoute route, final ResolvedRoute resolved, final Throwable failure)
    {
        conductor.send(new IdCommand.SaAnswered(id, route, resolved, failure));
    }

    void deviceRemoved(final String device)
    {
        conductor.send(new IdCommand.DeviceRemoved(device));
    }

    void bondFailedOver(final int ifindex, final String bond, final byte[] address)
    {
        conductor.send(new IdCommand.BondFailedOver(ifindex, bond, address));
    }
}

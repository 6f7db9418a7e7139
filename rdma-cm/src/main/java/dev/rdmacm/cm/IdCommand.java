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
 * What the conductor is asked to do: one record per call of the {@code rdma_cm} API, with the future a
 * synchronous caller waits on, and one per outcome that another thread hands back (the SA's answer, the
 * ACM service's, a CM engine's event). {@link IdConductor#onCommand} switches over them exhaustively, so
 * a new command that the conductor does not handle does not compile. Checks that need no id state were
 * made on the caller's thread before the command was built.
 */
sealed interface IdCommand
{
    /**
     * A command that the caller's next call must find done: made on the conductor's own thread (from a
     * callback), it runs at once rather than after what the conductor is doing.
     */
    sealed interface InCallersOrder extends IdCommand
    {
    }

    /** A call's answer: completed by the conductor, normally or with the call's {@link RdmaCmException}. */
    sealed interface Call extends InCallersOrder
    {
        CompletableFuture<?> reply();
    }

    /** {@code rdma_set_option} and the setters of the id's parameters. */
    record SetOption(RdmaCmId id, IdOption option, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_bind_addr} of an IP address; {@code port} -1 when none is given. */
    record BindIp(RdmaCmId id, InetAddress source, int port, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_bind_addr} of a {@code sockaddr_ib}. */
    record BindIb(RdmaCmId id, IbSockaddr source, CompletableFuture<Void> reply) implements Call
    {
    }

    /**
     * {@code rdma_resolve_addr} of IP addresses; ports -1 when not given. {@code reply} ends the call's
     * own part (null: no one waits for it), {@code completion} the resolution. {@code early} is the
     * query the caller made and attempted on its own thread ({@link CallerAddressLookup}), or null; the
     * conductor adopts it only if the id's state asks the same.
     */
    record ResolveIp(RdmaCmId id, InetAddress source, InetAddress destination, int sourcePort, int destinationPort,
        int timeoutMs, long startNanos, AddressQuery early, CompletableFuture<Void> reply,
        CompletableFuture<AddressResolution> completion) implements IdCommand
    {
    }

    /** {@code rdma_resolve_addr} of AF_IB addresses. */
    record ResolveIb(RdmaCmId id, IbSockaddr source, IbSockaddr destination, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_resolve_route}; {@code askAcm} false only where the answer could not come back (on the loop). */
    record ResolveRoute(RdmaCmId id, int timeoutMs, boolean askAcm, CompletableFuture<Void> reply,
        CompletableFuture<ResolvedRoute> completion) implements IdCommand
    {
    }

    /** {@code RDMA_OPTION_IB_PATH}. */
    record SetIbPath(RdmaCmId id, List<byte[]> pathData, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_resolve_addrinfo}'s start (EBUSY while one is pending or untaken). */
    record AddrinfoBegin(RdmaCmId id, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_resolve_addrinfo}'s lookup ended: {@code entries}, or null when it failed. */
    record AddrinfoEnd(RdmaCmId id, List<RdmaAddrInfo> entries, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_query_addrinfo}. */
    record AddrinfoTake(RdmaCmId id, CompletableFuture<List<RdmaAddrInfo>> reply) implements Call
    {
    }

    /** {@code rdma_write_cm_event} of a USER event. */
    record WriteEvent(RdmaCmId id, int status, long arg, CompletableFuture<Void> reply) implements Call
    {
    }

    /**
     * {@code rdma_create_qp} of an RC id: the QP, checked and moved to INIT on the caller's thread, becomes
     * the id's. No reply: the caller's next command comes after it.
     */
    record AttachRcQp(RdmaCmId id, RcQueuePair queuePair) implements InCallersOrder
    {
    }

    /** {@code rdma_create_qp} of a UD id: the QP, set up on the caller's thread, becomes the id's; no reply. */
    record AttachUdQp(RdmaCmId id, UdQueuePair queuePair) implements InCallersOrder
    {
    }

    /** {@code rdma_join_multicast_ex}: the group by its address, the join flag, the application's context. */
    record JoinMulticast(RdmaCmId id, InetAddress group, MulticastJoinFlag flag, Object context,
        CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_leave_multicast}. */
    record LeaveMulticast(RdmaCmId id, InetAddress group, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_connect}. */
    record Connect(RdmaCmId id, ConnectionParameters parameters, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_listen}. */
    record Listen(RdmaCmId id, int backlog, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_accept}. */
    record Accept(RdmaCmId id, ConnectionParameters parameters, CompletableFuture<Void> reply) implements Call
    {
    }

    /**
     * {@code rdma_accept}'s {@code rdma_init_qp_attr} of an RC id: the QP's attributes (and the id's port) that
     * the caller moves its QP with before {@link Accept} sends the REP.
     */
    record PrepareAccept(RdmaCmId id, ConnectionParameters parameters, CompletableFuture<ConnectResponseMoves> reply)
        implements Call
    {
    }

    /**
     * "RTU now": the thread that took CONNECT_RESPONSE moved the QP to RTS ({@code ucma_process_conn_resp}'s
     * {@code UCMA_CMD_ACCEPT}); the reply completes once the RTU is out and the id ESTABLISHED.
     */
    record ReadyToUse(RdmaCmId id, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_reject}, the private data already copied. */
    record Reject(RdmaCmId id, byte[] privateData, CompletableFuture<Void> reply) implements Call
    {
    }

    /** {@code rdma_disconnect}. */
    record Disconnect(RdmaCmId id, CompletableFuture<Void> reply) implements Call
    {
    }

    /**
     * {@code rdma_destroy_id}'s part on the conductor, sent once, by the call that set the handle's flag.
     * No reply: the caller drops the id's events itself.
     */
    record Destroy(RdmaCmId id) implements InCallersOrder
    {
    }

    // ---- handed back by other threads ----

    /** The ACM service's answer to a route's question (null: none). */
    record AcmAnswered(RdmaCmId id, PendingRoute route, byte[] answer, long startNanos, String addresses)
        implements IdCommand
    {
    }

    /** The SA's answer to a route's path query. */
    record SaAnswered(RdmaCmId id, PendingRoute route, ResolvedRoute resolved, Throwable failure) implements IdCommand
    {
    }

    /** The SA's answer to a Set or Delete of the port's multicast memberships. */
    record MulticastAnswered(MulticastMemberships.Answer answer) implements IdCommand
    {
    }

    /** The SA's answer to the question for the IPoIB broadcast group of {@code pKey} (null record: none). */
    record BroadcastGroupAnswered(int pKey, McMemberRecordValue record, Throwable failure) implements IdCommand
    {
    }

    /** An event of the id's connection, from its port's CM thread, with the state it leads to (or null). */
    record ConnectionEvent(RdmaCmId id, CmEvent event, CmIdState next) implements IdCommand
    {
    }

    /** The CM sent {@link ReadyToUse}'s RTU: the id is ESTABLISHED, then the reply completes. */
    record RtuSent(RdmaCmId id, CompletableFuture<Void> reply) implements Call
    {
    }

    /** A REQ or SIDR_REQ on a listener ({@code id}) made {@code child}, driven by {@code connection}. */
    record ConnectionRequest(RdmaCmId id, RdmaCmId child, IdConnection connection, IbCmPeerAddress from,
        byte[] privateData) implements IdCommand
    {
    }

    /** The RDMA device went away ({@code cma_process_remove}). */
    record DeviceRemoved(String device) implements IdCommand
    {
    }

    /** NETDEV_BONDING_FAILOVER of a bond ({@code cma_netdev_callback}). */
    record BondFailedOver(int ifindex, String bond, byte[] address) implements IdCommand
    {
    }
}

package dev.rdmacm.verbs;

import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.IBV_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.IBV_PORT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.VERBS_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The function pointers of one {@code ibv_context}, read once when the context is opened, through
 * which the {@code static inline} verbs of {@code verbs.h} are called: {@code ibv_poll_cq},
 * {@code ibv_req_notify_cq}, {@code ibv_post_send}, {@code ibv_post_recv} go through
 * {@code context->ops}, and {@code ibv_query_port} through the extended {@code verbs_context} that
 * libibverbs places in front of the context when {@code context->abi_compat} is
 * {@code __VERBS_ABI_IS_EXTENDED} (all ones).
 * <pre>
 *   ctx - 320  verbs_context.query_port      (called with sizeof(struct ibv_port_attr) = 52)
 *   ctx -   8  verbs_context.sz              (must be >= 648 for query_port to be present)
 *   ctx +   0  ibv_context.device
 *   ctx +   8  ibv_context.ops               (struct ibv_context_ops, 32 pointers)
 *   ctx +  96    ops.poll_cq
 *   ctx + 104    ops.req_notify_cq
 *   ctx + 208    ops.post_send
 *   ctx + 216    ops.post_recv
 *   ctx + 320  ibv_context.abi_compat
 * </pre>
 * The calls are allocation-free and return the provider's result unchecked: the callers
 * ({@link CompletionQueue}, {@link UdQueuePair}, {@link VerbsContext}) turn errors into
 * {@link VerbsException}s.
 */
final class ContextOps
{
    static final long OPS_OFFSET = offset(IBV_CONTEXT, "ops");
    static final long POLL_CQ_OFFSET = OPS_OFFSET + offset(IbvLayouts.IBV_CONTEXT_OPS, "poll_cq");
    static final long REQ_NOTIFY_CQ_OFFSET = OPS_OFFSET + offset(IbvLayouts.IBV_CONTEXT_OPS, "req_notify_cq");
    static final long POST_SEND_OFFSET = OPS_OFFSET + offset(IbvLayouts.IBV_CONTEXT_OPS, "post_send");
    static final long POST_RECV_OFFSET = OPS_OFFSET + offset(IbvLayouts.IBV_CONTEXT_OPS, "post_recv");
    static final long ABI_COMPAT_OFFSET = offset(IBV_CONTEXT, "abi_compat");
    /** Where the {@code ibv_context} sits inside its {@code verbs_context}. */
    static final long CONTEXT_IN_VERBS_CONTEXT = offset(VERBS_CONTEXT, "context");
    static final long VERBS_QUERY_PORT_OFFSET = offset(VERBS_CONTEXT, "query_port");
    static final long VERBS_SZ_OFFSET = offset(VERBS_CONTEXT, "sz");
    /** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *)UINTPTR_MAX}. */
    static final long ABI_IS_EXTENDED = -1L;

    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;
    private final MemorySegment postSend;
    private final MemorySegment postRecv;
    /** {@code NULL} when the context is not extended or its provider has no query_port. */
    private final MemorySegment queryPort;

    /**
     * Reads the slots of {@code context}, a pointer to an {@code ibv_context} that libibverbs (or a
     * test) laid out.
     */
    ContextOps(final MemorySegment context)
    {
        final MemorySegment ctx = context.reinterpret(IBV_CONTEXT.byteSize());
        pollCq = ctx.get(ADDRESS, POLL_CQ_OFFSET);
        reqNotifyCq = ctx.get(ADDRESS, REQ_NOTIFY_CQ_OFFSET);
        postSend = ctx.get(ADDRESS, POST_SEND_OFFSET);
        postRecv = ctx.get(ADDRESS, POST_RECV_OFFSET);
        queryPort = extendedQueryPort(context);
    }

    private static MemorySegment extendedQueryPort(final MemorySegment context)
    {
        final MemorySegment ctx = context.reinterpret(IBV_CONTEXT.byteSize());
        if (ctx.get(ADDRESS, ABI_COMPAT_OFFSET).address() != ABI_IS_EXTENDED)
        {
            return MemorySegment.NULL;
        }
        final MemorySegment verbsContext = MemorySegment.ofAddress(context.address() - CONTEXT_IN_VERBS_CONTEXT)
            .reinterpret(VERBS_CONTEXT.byteSize());
        final long size = verbsContext.get(JAVA_LONG, VERBS_SZ_OFFSET);
        if (size < VERBS_CONTEXT.byteSize() - VERBS_QUERY_PORT_OFFSET)
        {
            return MemorySegment.NULL;
        }
        return verbsContext.get(ADDRESS, VERBS_QUERY_PORT_OFFSET);
    }

    /** Whether the extended query_port, which fills port_cap_flags2, is present. */
    boolean hasExtendedQueryPort()
    {
        return queryPort.address() != 0;
    }

    /**
     * {@code ibv_poll_cq}: the number of completions written to {@code wc} (0 when the CQ is empty).
     *
     * @throws VerbsException when the provider reports an error (a negative result).
     */
    int pollCq(final MemorySegment cq, final int numEntries, final MemorySegment wc)
    {
        final int polled;
        try
        {
            polled = (int)LibIbverbs.DataPath.POLL_CQ.invokeExact(pollCq, cq, numEntries, wc);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_poll_cq", ex);
        }
        if (polled < 0)
        {
            throw new VerbsException("ibv_poll_cq", 0, "the provider returned " + polled + " (CQ in error)");
        }
        return polled;
    }

    /** {@code ibv_req_notify_cq}: arms the CQ for one completion event. */
    void reqNotifyCq(final MemorySegment cq, final boolean solicitedOnly)
    {
        final int rc;
        try
        {
            rc = (int)LibIbverbs.DataPath.REQ_NOTIFY_CQ.invokeExact(reqNotifyCq, cq, solicitedOnly ? 1 : 0);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_req_notify_cq", ex);
        }
        if (rc != 0)
        {
            throw new VerbsException("ibv_req_notify_cq", Math.abs(rc), solicitedOnly ? "solicited only" : "any completion");
        }
    }

    /**
     * {@code ibv_post_send}; {@code badWr} is a pointer-sized segment the provider sets to the first
     * work request it refused.
     */
    void postSend(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        final int rc;
        try
        {
            rc = (int)LibIbverbs.DataPath.POST_SEND.invokeExact(postSend, qp, wr, badWr);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_post_send", ex);
        }
        if (rc != 0)
        {
            throw new VerbsException("ibv_post_send", Math.abs(rc), refused(badWr));
        }
    }

    /** {@code ibv_post_recv}, as {@link #postSend}. */
    void postRecv(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        final int rc;
        try
        {
            rc = (int)LibIbverbs.DataPath.POST_RECV.invokeExact(postRecv, qp, wr, badWr);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_post_recv", ex);
        }
        if (rc != 0)
        {
            throw new VerbsException("ibv_post_recv", Math.abs(rc), refused(badWr));
        }
    }

    /**
     * The extended {@code query_port} into a 52-byte {@code ibv_port_attr}; only call when
     * {@link #hasExtendedQueryPort()}.
     */
    void queryPort(final MemorySegment context, final int port, final MemorySegment attr)
    {
        final int rc;
        try
        {
            rc = (int)LibIbverbs.Contexts.QUERY_PORT.invokeExact(queryPort, context, (byte)port, attr, IBV_PORT_ATTR.byteSize());
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_query_port", ex);
        }
        if (rc != 0)
        {
            throw new VerbsException("ibv_query_port", Math.abs(rc), "port " + port);
        }
    }

    /** The wr_id of the work request a post refused, both work request structs start with it. */
    private static String refused(final MemorySegment badWr)
    {
        final MemorySegment bad = badWr.get(ADDRESS, 0);
        if (bad.address() == 0)
        {
            return "the provider named no refused work request";
        }
        return "work request wr_id " + bad.reinterpret(Long.BYTES).get(JAVA_LONG, 0) + " refused";
    }
}

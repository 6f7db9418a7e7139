package dev.rdmacm.cli;

import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.UdParameters;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;

/**
 * One of mckey's {@code cmatest_node}s: the verbs resources of one joined id, made as mckey's
 * {@code init_node} makes them (a PD, one CQ of twice the message count, a UD QP of that many work
 * requests attached to the id, one buffer of the message and a GRH's 40 bytes), the receives posted
 * before the join, and after MULTICAST_JOIN the group's address handle. {@link #none()} is a node
 * without a device (a simulated fabric's port): it joins and moves no data.
 */
final class McKeyNode implements AutoCloseable
{
    /** {@code sizeof(struct ibv_grh)}: a UD receive buffer starts with it. */
    private static final int GRH_SIZE = 40;
    private static final long WR_ID = 1;

    private final VerbsContext context;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final UdQueuePair qp;
    private final MemoryRegion buffer;
    private final int count;
    private final int size;
    private final int mtu;
    private AddressHandle group;
    private int remoteQpn;
    private long remoteQkey;
    private int messages;

    private McKeyNode(final VerbsContext context, final ProtectionDomain pd, final CompletionQueue cq, final UdQueuePair qp,
        final MemoryRegion buffer, final int count, final int size, final int mtu)
    {
        this.context = context;
        this.pd = pd;
        this.cq = cq;
        this.qp = qp;
        this.buffer = buffer;
        this.count = count;
        this.size = size;
        this.mtu = mtu;
    }

    static McKeyNode none()
    {
        return new McKeyNode(null, null, null, null, null, 0, 0, Integer.MAX_VALUE);
    }

    /**
     * The node of {@code id}, whose address is bound or resolved: its port's active MTU read first, as
     * mckey's {@code verify_test_params} does ({@link #mtuTooSmall()} then says whether {@code size} fits),
     * and a receiver's {@code count} receives posted.
     */
    static McKeyNode open(final RdmaCmId id, final boolean sender, final int count, final int size) throws RdmaCmException
    {
        final VerbsContext context = Verbs.open(id.binding().device());
        McKeyNode node = null;
        try
        {
            final int mtu = 1 << (context.queryPort(id.binding().port()).activeMtu() + 7);
            final ProtectionDomain pd = context.allocateProtectionDomain();
            final int depth = Math.max(count, 1);
            final CompletionQueue cq = context.createCompletionQueue(count > 0 ? count * 2 : 2, null);
            final UdQueuePair qp = pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(depth, depth, 1, 1, 0));
            final MemoryRegion buffer = count > 0 && size > 0
                ? pd.allocateMemoryRegion(size + GRH_SIZE, IbvConstants.IBV_ACCESS_LOCAL_WRITE) : null;
            node = new McKeyNode(context, pd, cq, qp, buffer, buffer == null ? 0 : count, size, mtu);
            id.attachQp(qp);
            if (!sender && buffer != null && !node.mtuTooSmall())
            {
                for (int i = 0; i < count; i++)
                {
                    qp.postReceive(WR_ID, buffer, 0, size + GRH_SIZE);
                }
            }
            return node;
        }
        catch (final RuntimeException ex)
        {
            if (node != null)
            {
                node.close();
            }
            else
            {
                context.close();
            }
            throw ex;
        }
    }

    /** The port's active MTU in bytes. */
    int mtu()
    {
        return mtu;
    }

    /** mckey's check: messages to send or receive that are larger than the active MTU. */
    boolean mtuTooSmall()
    {
        return count > 0 && size > mtu;
    }

    /** MULTICAST_JOIN's parameters: the group's address handle, QP number and Q_Key. */
    void connect(final UdParameters ud)
    {
        if (pd != null)
        {
            group = pd.createAddressHandle(ud.ahAttr());
            remoteQpn = ud.qpNumber();
            remoteQkey = ud.qkey();
        }
    }

    /** mckey's {@code post_sends}: the datagrams, unsignaled, each with the QP number as immediate data. */
    void send()
    {
        if (group == null || buffer == null)
        {
            return;
        }
        for (int i = 0; i < count; i++)
        {
            qp.postSendWithImmediate(WR_ID, buffer, 0, size, group, remoteQpn, remoteQkey, false, qp.qpNumber());
            messages++;
        }
    }

    /** mckey's {@code poll_cqs} for this node: completions until {@code count}, as long as it takes. */
    void awaitReceives() throws InterruptedException
    {
        if (group == null || buffer == null)
        {
            return;
        }
        try (WorkCompletions completions = new WorkCompletions(8))
        {
            while (messages < count)
            {
                final int polled = cq.poll(completions);
                messages += polled;
                if (polled == 0)
                {
                    if (Thread.interrupted())
                    {
                        throw new InterruptedException("mckey: " + messages + " of " + count + " datagrams received");
                    }
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** Datagrams sent or received. */
    int messages()
    {
        return messages;
    }

    @Override
    public void close()
    {
        if (context == null)
        {
            return;
        }
        if (group != null)
        {
            group.close();
        }
        qp.close();
        cq.close();
        if (buffer != null)
        {
            buffer.close();
        }
        pd.close();
        context.close();
    }
}

package dev.rdmacm.conformance;

import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.UdParameters;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * udaddy.c's {@code cmatest_node} on this project's CM: a PD, one CQ of {@code 2 * COUNT} entries and a UD QP of COUNT
 * sends and receives on the id's device, attached to the id ({@code rdma_create_qp}), one buffer of udaddy's default
 * message size after the GRH area that every work request uses, and where its messages go. For {@link UdaddyPeer}
 * (udaddy's both roles in our JVM, across the wire) and the kernel guest's {@code UdaddyThroughKernelCmInGuest} (beside
 * the real udaddy, through the kernel's CM).
 * <p>
 * A departure from udaddy's run (a failed completion, a receive without the GRH area, the message or immediate data,
 * too few completions in time) goes to {@code departure} with why, which must not return: it fails the test, or ends
 * the process as udaddy does.
 */
public final class UdaddyNode implements AutoCloseable
{
    /** udaddy.c's default message size. */
    public static final int MESSAGE_SIZE = 100;

    private final RdmaCmId id;
    private final int count;
    private final Duration wait;
    private final Consumer<String> departure;
    private final VerbsContext context;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final UdQueuePair qp;
    private final MemoryRegion mem;
    private final WorkCompletions completions = new WorkCompletions(8);
    private AddressHandle ah;
    private int remoteQpn;
    private long remoteQkey;

    /**
     * @param count     udaddy's {@code -C}: the messages each way.
     * @param wait      the longest wait for {@link #complete}'s completions.
     * @param departure what a departure from udaddy's run does (it must not return).
     */
    public UdaddyNode(final RdmaCmId id, final int count, final Duration wait, final Consumer<String> departure) throws Exception
    {
        this.id = id;
        this.count = count;
        this.wait = wait;
        this.departure = departure;
        this.context = Verbs.open(id.binding().device());
        this.pd = context.allocateProtectionDomain();
        this.cq = context.createCompletionQueue(count * 2, null);
        this.qp = pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(count, count, 1, 1, 0));
        this.mem = pd.allocateMemoryRegion(MESSAGE_SIZE + IbvConstants.GRH_LENGTH, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        id.attachQp(qp);
    }

    /** udaddy's post_recvs: COUNT receives of the one buffer, GRH area and message. */
    public void postReceives()
    {
        for (int i = 0; i < count; i++)
        {
            qp.postReceive(i, mem, 0, MESSAGE_SIZE + IbvConstants.GRH_LENGTH);
        }
    }

    /** udaddy's resolved_handler: the AH from {@code param.ud.ah_attr}, its QPN and Q_Key. */
    public void reachVia(final UdParameters ud)
    {
        ah = pd.createAddressHandle(ud.ahAttr());
        remoteQpn = ud.qpNumber();
        remoteQkey = ud.qkey();
    }

    /** udaddy's post_sends: COUNT sends of the message (after no GRH area) with our QP number as immediate data. */
    public void postSends(final boolean signaled)
    {
        for (int i = 0; i < count; i++)
        {
            qp.postSendWithImmediate(i, mem, 0, MESSAGE_SIZE, ah, remoteQpn, remoteQkey, signaled, qp.qpNumber());
        }
    }

    /**
     * udaddy's poll_cqs: COUNT successful completions; the first received one, when there is no AH yet, gives the reply
     * AH (create_reply_ah), its immediate data the reply QPN and our QP's Q_Key the reply's. Receives must carry the GRH
     * area and the message, and immediate data.
     */
    public void complete(final boolean receives) throws InterruptedException
    {
        final long deadline = System.nanoTime() + wait.toNanos();
        for (int done = 0; done < count; )
        {
            final int n = cq.poll(completions);
            for (int i = 0; i < n; i++)
            {
                if (completions.completionStatus(i) != CompletionStatus.SUCCESS
                    || receives && (completions.byteLength(i) != MESSAGE_SIZE + IbvConstants.GRH_LENGTH
                    || !completions.hasImmediateData(i)))
                {
                    depart("udaddy: completion " + completions.completionStatus(i) + " " + completions.byteLength(i) + " bytes, "
                        + (completions.hasImmediateData(i) ? "with" : "without") + " immediate data");
                }
                if (receives && ah == null)
                {
                    ah = pd.createAddressHandle(pd.replyAddress(completions, i, mem.memory().asSlice(0, IbvConstants.GRH_LENGTH),
                        id.binding().port()));
                    remoteQpn = completions.immediateData(i);
                    remoteQkey = qp.query().qkey();
                }
            }
            done += n;
            if (n == 0)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    depart("udaddy: " + done + " of " + count + " completions within " + wait);
                }
                Thread.sleep(1);
            }
        }
    }

    private void depart(final String why)
    {
        departure.accept(why);
        throw new IllegalStateException("the departure returned: " + why);
    }

    @Override
    public void close()
    {
        if (ah != null)
        {
            ah.close();
        }
        qp.close();
        cq.close();
        mem.close();
        pd.close();
        context.close();
        completions.close();
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.Selector;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Test double for what a real SA cannot do on demand: hold each PathRecord query until the test
 * answers it, so that queueing, coalescing and timeouts can be observed. Answers are built the way
 * OpenSM fills a record (the template with MTU, rate and lifetime set).
 */
final class HeldPathQuerier implements AcmPathQuerier
{
    record Query(AcmEndpoint endpoint, byte[] template, Completion completion)
    {
        void answer()
        {
            final byte[] path = template.clone();
            new IbvPathRecord().wrap(new UnsafeBuffer(path), 0).mtuSelector(Selector.EXACTLY).mtu(4)
                .rateSelector(Selector.EXACTLY).rate(6).packetLifeTimeSelector(Selector.EXACTLY).packetLifeTime(18);
            completion.onPath(path);
        }
    }

    private final BlockingQueue<Query> queries = new LinkedBlockingQueue<>();

    @Override
    public void query(final AcmEndpoint endpoint, final byte[] template, final Completion completion)
    {
        queries.add(new Query(endpoint, template, completion));
    }

    /** The next query the service sent, if one is held; null otherwise (no wait). */
    Query poll()
    {
        return queries.poll();
    }

    /** The next query the service sent, waiting up to {@code timeoutMs}; null when none came. */
    Query next(final long timeoutMs) throws InterruptedException
    {
        return queries.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }
}

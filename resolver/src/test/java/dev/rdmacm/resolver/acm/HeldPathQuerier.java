package dev.rdmacm.resolver.acm;

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
            path[PathRecordTemplate.MTU_OFFSET] = (byte)0x84;
            path[PathRecordTemplate.RATE_OFFSET] = (byte)0x86;
            path[PathRecordTemplate.PACKET_LIFETIME_OFFSET] = (byte)0x92;
            completion.onPath(path);
        }
    }

    private final BlockingQueue<Query> queries = new LinkedBlockingQueue<>();

    @Override
    public void query(final AcmEndpoint endpoint, final byte[] template, final Completion completion)
    {
        queries.add(new Query(endpoint, template, completion));
    }

    /** The next query the service sent, waiting up to {@code timeoutMs}; null when none came. */
    Query next(final long timeoutMs) throws InterruptedException
    {
        return queries.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }
}

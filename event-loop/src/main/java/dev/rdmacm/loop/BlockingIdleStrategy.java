package dev.rdmacm.loop;

import org.agrona.concurrent.IdleStrategy;

/**
 * The idle strategy of an event loop that blocks instead of spinning or sleeping: after a duty cycle
 * without work it calls the loop's own wait (poll(2) on its {@link PollSet}: its descriptors and a wake-up eventfd,
 * or a transport's wait), which returns on I/O, a wake-up from another thread or the loop's earliest
 * timer deadline.
 */
public final class BlockingIdleStrategy implements IdleStrategy
{
    private final Runnable awaitWork;
    private final String alias;

    /**
     * @param awaitWork blocks the loop thread until there may be work; may return early.
     * @param alias     the name Agrona reports for this strategy.
     */
    public BlockingIdleStrategy(final Runnable awaitWork, final String alias)
    {
        this.awaitWork = awaitWork;
        this.alias = alias;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0)
        {
            awaitWork.run();
        }
    }

    @Override
    public void idle()
    {
        awaitWork.run();
    }

    @Override
    public void reset()
    {
    }

    @Override
    public String alias()
    {
        return alias;
    }
}

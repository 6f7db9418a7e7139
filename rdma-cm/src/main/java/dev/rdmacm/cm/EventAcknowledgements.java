package dev.rdmacm.cm;

/**
 * The events of one id that the application took from the channel and has not acknowledged yet:
 * counted by the application's threads, waited for by {@code rdma_destroy_id}, which in librdmacm
 * waits after the kernel's destroy until {@code events_completed} reaches the count of events the
 * kernel says it reported.
 */
final class EventAcknowledgements
{
    private int unacknowledged;

    /** The channel handed one of the id's events to the application. */
    synchronized void retrieved()
    {
        unacknowledged++;
    }

    /** The application acknowledged one of them; a surplus ack changes nothing. */
    synchronized void acknowledged()
    {
        if (unacknowledged > 0)
        {
            unacknowledged--;
            notifyAll();
        }
    }

    /** How many are still to be acknowledged. */
    synchronized int pending()
    {
        return unacknowledged;
    }

    /**
     * Waits until every event handed out is acknowledged. Not interruptible, as rdma_destroy_id is not:
     * an interrupt is kept for after the wait.
     *
     * @param cm refuses the wait on its event loop, where it could never end.
     */
    void awaitAll(final RdmaCm cm)
    {
        boolean interrupted = false;
        synchronized (this)
        {
            if (unacknowledged > 0)
            {
                cm.requireNotLoopThread("rdma_destroy_id with unacknowledged events");
            }
            while (unacknowledged > 0)
            {
                try
                {
                    wait();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}

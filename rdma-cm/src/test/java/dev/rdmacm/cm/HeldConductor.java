package dev.rdmacm.cm;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conductor held inside a command of the test's until {@link #close}: what the test's thread does meanwhile
 * must not need the conductor (a caller's-thread resolution, a destroy, a QP's attach).
 */
final class HeldConductor implements AutoCloseable
{
    private final CountDownLatch release = new CountDownLatch(1);

    private HeldConductor()
    {
    }

    /** Holds {@code cm}'s conductor from when it runs the command, which this waits for. */
    static HeldConductor hold(final RdmaCm cm) throws InterruptedException
    {
        return hold(cm, () ->
        {
        });
    }

    /** The same, the conductor running {@code afterRelease} once released, before its next command. */
    static HeldConductor hold(final RdmaCm cm, final Runnable afterRelease) throws InterruptedException
    {
        final HeldConductor held = new HeldConductor();
        final CountDownLatch busy = new CountDownLatch(1);
        assertTrue(cm.trySubmit(loop ->
        {
            busy.countDown();
            held.awaitRelease();
            afterRelease.run();
        }), "the conductor took the command");
        assertTrue(busy.await(30, TimeUnit.SECONDS), "the conductor ran the command");
        return held;
    }

    /** Lets the conductor go on. */
    @Override
    public void close()
    {
        release.countDown();
    }

    private void awaitRelease()
    {
        while (true)
        {
            try
            {
                release.await();
                return;
            }
            catch (final InterruptedException ex)
            {
                // the test's thread releases it in close
            }
        }
    }
}

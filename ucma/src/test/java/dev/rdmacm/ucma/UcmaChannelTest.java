package dev.rdmacm.ucma;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What the channel does before and around the kernel's RDMA CM, on any host: the errors of a device
 * that is missing, of an ABI it does not speak, of a write the kernel refuses and of a closed channel.
 * The commands against the real kernel CM run in the kernel guest ({@code UcmaChannelInGuest}).
 * {@code /dev/full} stands in for a device whose every write the kernel refuses (ENOSPC), as no host
 * here has {@code rdma_ucm}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class UcmaChannelTest
{
    private static final Path FULL = Path.of("/dev/full");

    private static void awaitUninterruptibly(final CountDownLatch latch)
    {
        while (true)
        {
            try
            {
                latch.await();
                return;
            }
            catch (final InterruptedException ex)
            {
                // the test's own thread: it ends with the latch
            }
        }
    }

    @Test
    void shouldSayTheModuleIsNotLoadedWhenTheDeviceIsMissing(@TempDir final Path directory)
    {
        final UcmaException missing = assertThrows(UcmaException.class,
            () -> UcmaChannel.open(directory.resolve("rdma_cm"), directory.resolve("abi_version")));

        assertEquals(Errno.ENOENT, missing.errno());
        assertEquals("cannot open " + directory.resolve("rdma_cm") + " (no such node: the rdma_ucm module is not loaded, or " +
            "devtmpfs did not create it): ENOENT (No such file or directory)", missing.getMessage());
    }

    @Test
    void shouldRefuseAnAbiVersionItDoesNotSpeak(@TempDir final Path directory) throws IOException
    {
        final Path abi = Files.writeString(directory.resolve("abi_version"), "3\n");

        final UcmaException refused = assertThrows(UcmaException.class, () -> UcmaChannel.open(FULL, abi));

        assertEquals(Errno.EPROTONOSUPPORT, refused.errno());
        assertEquals("the kernel's RDMA CM speaks ABI version '3' (" + abi + "); this binding speaks 4 only: " +
            "EPROTONOSUPPORT (Protocol not supported)", refused.getMessage());
    }

    @Test
    void shouldNameTheCommandAndTheErrnoOfARefusedWrite(@TempDir final Path directory)
    {
        try (UcmaChannel channel = UcmaChannel.open(FULL, directory.resolve("absent")))
        {
            final UcmaException refused = assertThrows(UcmaException.class, () -> channel.resolveRoute(7, 1000));

            assertEquals(Errno.ENOSPC, refused.errno());
            assertEquals(UcmaCommand.RESOLVE_ROUTE, refused.command());
            assertEquals("RDMA_USER_CM_CMD_RESOLVE_ROUTE: ENOSPC (No space left on device) on /dev/full", refused.getMessage());
        }
    }

    @Test
    void shouldNameTheCommandOfACallOnAClosedChannel(@TempDir final Path directory)
    {
        final UcmaChannel channel = UcmaChannel.open(FULL, directory.resolve("absent"));
        channel.close();
        channel.close();

        final UcmaException closed = assertThrows(UcmaException.class,
            () -> channel.createId(1, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC));
        final UcmaException noEvent = assertThrows(UcmaException.class, () -> channel.getEvent(0, TimeUnit.MILLISECONDS));

        assertEquals("RDMA_USER_CM_CMD_CREATE_ID: EBADF (Bad file descriptor) on /dev/full (the channel is closed)",
            closed.getMessage());
        assertEquals(UcmaCommand.GET_EVENT, noEvent.command());
    }

    /**
     * A thread's commands do not wait for another thread's: each writes from a slot of its own, as librdmacm's callers
     * write. Before, one lock held every command, and an answer held it until it returned.
     */
    @Test
    void shouldWriteAThreadsCommandWhileAnotherThreadHoldsAnAnswer(@TempDir final Path directory) throws Exception
    {
        try (UcmaChannel channel = UcmaChannel.open(FULL, directory.resolve("absent")))
        {
            final CountDownLatch holding = new CountDownLatch(1);
            final CountDownLatch released = new CountDownLatch(1);
            final Thread answering = Thread.ofPlatform().start(() -> channel.answer(ch ->
            {
                holding.countDown();
                awaitUninterruptibly(released);
                return null;
            }));
            try
            {
                holding.await();

                final UcmaException refused = assertThrows(UcmaException.class, () -> channel.disconnect(3));

                assertEquals(Errno.ENOSPC, refused.errno(), "the write reached the device while the answer held its slot");
            }
            finally
            {
                released.countDown();
                answering.join();
            }
        }
    }

    /** The commands inside an answer write from its slot, one after the other, and the answer's end gives it back. */
    @Test
    void shouldWriteTheCommandsOfAnAnswerAndGoOnAfterIt(@TempDir final Path directory)
    {
        try (UcmaChannel channel = UcmaChannel.open(FULL, directory.resolve("absent")))
        {
            final int refused = channel.answer(ch ->
            {
                int count = 0;
                for (final int id : new int[] {1, 2})
                {
                    count += assertThrows(UcmaException.class, () -> ch.initQpAttr(id, 3)).errno() == Errno.ENOSPC ? 1 : 0;
                }
                return count;
            });

            assertEquals(2, refused);
            assertEquals(UcmaCommand.NOTIFY, assertThrows(UcmaException.class, () -> channel.notify(1, 3)).command());
        }
    }

    @Test
    void shouldRefuseUidZeroWhoseEventsTheKernelWouldDrop(@TempDir final Path directory)
    {
        try (UcmaChannel channel = UcmaChannel.open(FULL, directory.resolve("absent")))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> channel.createId(0, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC));

            assertEquals("uid 0: the kernel drops every event of an id whose uid is 0", refused.getMessage());
        }
    }
}

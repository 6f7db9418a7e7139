package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.resolver.spi.FixedGidDirectory;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.UcmaConstants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The KERNEL back-end where the kernel's CM cannot be had, on this host: {@code /dev/infiniband/rdma_cm}
 * missing (the host has no {@code rdma_ucm}), an ABI version this binding does not speak (a version file
 * written here: no kernel here has one), and a descriptor already closed. Each error names the call that
 * needed the kernel's CM and the errno once; the id stays as it was and can be destroyed; once the RdmaCm is
 * closed, its threads and descriptors are those there were before.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KernelCmUnavailableTest
{
    /** The JVM's first RdmaCm keeps two descriptors for the process's life (its first poller's): taken before any count. */
    @BeforeAll
    static void warmUp()
    {
        kernelCm().close();
    }

    private static RdmaCm kernelCm()
    {
        return RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).gids(new FixedGidDirectory(List.of()))
            .build());
    }

    @Test
    void shouldNameRdmaListenAndEnoentWhenTheKernelsCmDeviceIsMissingAndLeaveNothingBehind() throws Exception
    {
        Peers.require(!Files.exists(UcmaChannel.DEVICE), "a host without " + UcmaChannel.DEVICE + " (no rdma_ucm): the case opens the "
            + "kernel's own path");
        final TreeSet<String> threads = CmThreads.now();
        final OpenDescriptors descriptors = OpenDescriptors.now();
        final RdmaCmException missing;
        try (RdmaCm cm = kernelCm(); EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            missing = assertThrows(RdmaCmException.class, () -> id.listen(0));

            assertEquals(CmIdState.ADDR_BOUND, id.state(), "rdma_listen bound the IDLE id to the wildcard first, as the kernel's does");
            id.destroy();
        }

        assertEquals(Errno.ENOENT, missing.errno());
        assertEquals("rdma_listen failed: ENOENT (No such file or directory): the kernel's RDMA CM: cannot open " + UcmaChannel.DEVICE
            + " (no such node: the rdma_ucm module is not loaded, or devtmpfs did not create it)", missing.getMessage());
        assertEquals(threads, CmThreads.now(), "the RdmaCm's threads are gone after close");
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptors), "descriptors left open after close");
    }

    @Test
    void shouldNameRdmaListenAndEprotonosupportForAnAbiVersionItDoesNotSpeak(@TempDir final Path directory) throws Exception
    {
        final Path abi = Files.writeString(directory.resolve("abi_version"), "5\n");
        final OpenDescriptors descriptors = OpenDescriptors.now();
        final RdmaCmException refused;
        try (RdmaCm cm = kernelCm(); EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            cm.managers().kernelCmFiles(directory.resolve("rdma_cm"), abi);

            refused = assertThrows(RdmaCmException.class, () -> id.listen(0));
        }

        assertEquals(Errno.EPROTONOSUPPORT, refused.errno());
        assertEquals("rdma_listen failed: EPROTONOSUPPORT (Protocol not supported): the kernel's RDMA CM: the kernel's RDMA CM speaks "
            + "ABI version '5' (" + abi + "); this binding speaks 4 only", refused.getMessage());
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptors), "descriptors left open after close");
    }

    @Test
    void shouldNameTheCallTheCommandAndEbadfOfADescriptorAlreadyClosed(@TempDir final Path directory) throws Exception
    {
        // a FIFO opens as a character device would (O_RDWR | O_NONBLOCK) and is never readable: the channel's own descriptor
        final Path fifo = directory.resolve("rdma_cm");
        HostCommand.run(Duration.ofSeconds(10), "mkfifo", fifo.toString()).orFail("mkfifo");
        final OpenDescriptors descriptors = OpenDescriptors.now();
        try (RdmaCm cm = kernelCm())
        {
            final KernelCm kernel = KernelCm.open(cm, id -> null, "rdma_listen", fifo, directory.resolve("absent"));
            kernel.close();

            final UcmaException closed = assertThrows(UcmaException.class,
                () -> kernel.command(channel -> channel.createId(1, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC)));
            final RdmaCmException reported = KernelCm.refused("rdma_listen", closed);

            assertEquals(Errno.EBADF, reported.errno());
            assertEquals("rdma_listen failed: EBADF (Bad file descriptor): the kernel's RDMA CM refused RDMA_USER_CM_CMD_CREATE_ID on "
                + fifo + " (the channel is closed)", reported.getMessage());
        }
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptors), "descriptors left open after close");
    }
}

package dev.rdmacm.umad;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run last inside the lower-layers guest ({@code SoftRoceGuestsTest}): loads the kernel's own
 * {@code ib_cm} ({@code modprobe ib_cm}, which registers the CM class on every port of rxe10 and
 * rxe11 as it would on any host), measures what a userspace CM agent then gets, and unloads it again,
 * so that the guest is left as it was. Cheaper than a class in the kernel-CM guest, whose ib_cm is
 * the same module.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class UmadBesideKernelCmInGuest
{
    private static final Duration MODPROBE = Duration.ofSeconds(30);
    private static final Path IB_CM = Path.of("/sys/module/ib_cm");

    @BeforeAll
    static void loadTheKernelCm()
    {
        Peers.require(Files.exists(Path.of("/sys/class/infiniband/rxe10")), "no rxe10 in this guest");
        Peers.require(!Files.exists(IB_CM), "ib_cm is loaded already: this guest is not the lower-layers guest");
        HostCommand.run(MODPROBE, "modprobe", "ib_cm").orFail("modprobe ib_cm");
    }

    @AfterAll
    static void unloadTheKernelCm()
    {
        HostCommand.run(MODPROBE, "modprobe", "-r", "ib_cm").orFail("modprobe -r ib_cm");
        assertFalse(Files.exists(IB_CM), "ib_cm still loaded");
    }

    @Test
    void shouldSayThatTheKernelCmHoldsTheCmClass()
    {
        try (UmadPort port = UmadPort.open("rxe10", 1))
        {
            final AgentInUseException error = assertThrows(AgentInUseException.class,
                () -> port.register(AgentRegistration.communicationManagement()));

            assertEquals(Errno.EINVAL, error.errno());
            assertTrue(error.kernelCmLoaded());
            assertEquals("cannot register an agent for class 0x07 (ComMgt) version 2 methods [0x03] on " + port + ": the kernel's " +
                "ib_cm is loaded (/sys/module/ib_cm) and holds the CM class's Send method on every port; a userspace CM needs a " +
                "host without ib_cm (modprobe -r ib_cm, with rdma_ucm and rdma_cm that use it) (the kernel answered errno 22 " +
                "EINVAL (Invalid argument))", error.getMessage());
        }
    }

    @Test
    void shouldRegisterTheCmClassWithoutMethodsBesideTheKernelCm()
    {
        // no method: the agent may send CM MADs and gets the responses to its own requests, but the
        // kernel's MAD layer routes every unsolicited CM Send (all CM messages are) to ib_cm
        try (UmadPort port = UmadPort.open("rxe10", 1))
        {
            assertTrue(port.register(AgentRegistration.of(0x07, 2)).isRegistered());
        }
    }
}

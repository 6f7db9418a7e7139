package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How many threads an {@link RdmaCm} runs, in the userspace-CM guest ({@code UserspaceGuestSuite}: no
 * kernel ib_cm, so our CM may hold the CM class of every umad port): a listener on 0.0.0.0 over four rxe
 * devices opens the CM of each of their ports, and still the RdmaCm runs one thread, the conductor
 * (the SA engine would be the second, on InfiniBand).
 * <p>
 * The four devices are the guest's {@code rxe0..rxe2} ({@code SoftRoceLan}) and {@code rxe10}
 * ({@code SoftRoceGuest}). The wildcard listen is kept to them because the wire's device ({@code rxew0},
 * {@code GuestWire}) carries the silent-peer client meanwhile, which holds its CM class: the RdmaCm's
 * directory lists the machine's devices but those four as its ports.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public class ConductorThreadsInGuest
{
    private static final Set<String> DEVICES = Set.of("rxe0", "rxe1", "rxe2", "rxe10");
    private static final int LISTEN_PORT = 7491;

    private static GidDirectory fourDevices;

    @BeforeAll
    static void readTheDevices()
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        final GidDirectory live = GidDirectory.live(System.getenv());
        fourDevices = new OnlyDevices(live, DEVICES);
        assertEquals(DEVICES, Set.copyOf(fourDevices.ports().stream().map(RdmaPortBinding::device).toList()),
            "the guest's devices: " + live.ports());
    }

    @Test
    void shouldRunOneThreadWhileAWildcardListenerHoldsTheCmOfFourDevices() throws Exception
    {
        final Set<Thread> before = Thread.getAllStackTraces().keySet();
        final long umadBefore = umadDescriptors();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().gids(fourDevices).build());
             EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(LISTEN_PORT));
            listener.listen(1);

            assertEquals(CmIdState.LISTEN, listener.state());
            assertEquals(DEVICES.size(), umadDescriptors() - umadBefore, "one umad port open per device");
            final List<String> started = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !before.contains(thread) && thread.isAlive()).map(Thread::getName).sorted().toList();
            assertEquals(List.of("rdmacm-conductor"), started);
            assertTrue(started.size() <= 2);
            listener.destroy();
        }
        assertEquals(umadBefore, umadDescriptors(), "the ports' umad devices are closed with the RdmaCm");
    }

    /** The descriptors of this process open on {@code /dev/infiniband/umad*}. */
    private static long umadDescriptors()
    {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd")))
        {
            return fds.filter(fd ->
            {
                try
                {
                    return Files.readSymbolicLink(fd).toString().startsWith("/dev/infiniband/umad");
                }
                catch (final IOException ex)
                {
                    return false; // the directory's own descriptor, closed by the time it is read
                }
            }).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The machine's directory with only {@code devices}' ports listed (what a wildcard listens on). */
    private record OnlyDevices(GidDirectory live, Set<String> devices) implements GidDirectory
    {
        @Override
        public Optional<RdmaPortBinding> findInfinibandGid(final Gid gid)
        {
            return live.findInfinibandGid(gid);
        }

        @Override
        public Optional<RdmaPortBinding> findRoceGid(final Gid gid, final String netdev)
        {
            return live.findRoceGid(gid, netdev);
        }

        @Override
        public Optional<RdmaPortBinding> loopbackPort()
        {
            return live.loopbackPort();
        }

        @Override
        public Optional<RdmaPortBinding> findAfIbPort(final Gid dgid, final int pkey)
        {
            return live.findAfIbPort(dgid, pkey);
        }

        @Override
        public List<RdmaPortBinding> ports()
        {
            return live.ports().stream().filter(port -> devices.contains(port.device())).toList();
        }

        @Override
        public Optional<RdmaPortBinding> entry(final String device, final int port, final int gidIndex)
        {
            return live.entry(device, port, gidIndex);
        }
    }
}

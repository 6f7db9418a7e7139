package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real libibverbs on a machine without RDMA devices (as every CI machine is): an empty list
 * with the exact reason, never a crash; and the same when the library is absent or native access
 * is denied, each tried in a child JVM because the library is loaded once per JVM.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class VerbsWithoutDevicesTest
{
    private static final String LIBIBVERBS = "/usr/lib/x86_64-linux-gnu/libibverbs.so.1";
    private static final String NO_DEVICES = "libibverbs found no RDMA devices (ibv_get_device_list returned NULL, "
        + "errno 38 ENOSYS: no /sys/class/infiniband_verbs/uverbs* device with a provider in ibverbs-providers)";

    @Test
    void shouldListNoDevicesWithThePreciseReason()
    {
        requireLibibverbsWithoutDevices();

        final DeviceListing listing = Verbs.listDevices();

        assertEquals(List.of(), listing.devices());
        assertTrue(listing.isEmpty());
        assertEquals(NO_DEVICES, listing.whyNone().orElseThrow());
    }

    @Test
    void shouldRefuseToOpenADeviceNamingWhyThereIsNone()
    {
        requireLibibverbsWithoutDevices();

        final VerbsException ex = assertThrows(VerbsException.class, () -> Verbs.open("mlx5_0"));

        assertEquals("ibv_open_device", ex.call());
        assertEquals(Errno.ENODEV, ex.errno());
        assertEquals("ibv_open_device failed: errno 19 ENODEV: no RDMA device named mlx5_0: " + NO_DEVICES, ex.getMessage());
    }

    @Test
    void shouldRefuseToOpenADeviceAHeldListLacksAfterListingAgain()
    {
        requireLibibverbsWithoutDevices();

        try (HeldDeviceList listed = HeldDeviceList.now())
        {
            final VerbsException ex = assertThrows(VerbsException.class, () -> listed.openOrListAgain("mlx5_0"));

            assertEquals(Errno.ENODEV, ex.errno());
            assertEquals("ibv_open_device failed: errno 19 ENODEV: no RDMA device named mlx5_0: " + NO_DEVICES, ex.getMessage());
        }
    }

    @Test
    void shouldLinkEveryHandleOfEveryHolderAgainstTheRealLibrary()
    {
        requireLibibverbsWithoutDevices();

        // each holder links on its first use, which a host without devices never reaches for most of them;
        // List.of refuses a null, so every handle is there
        final List<java.lang.invoke.MethodHandle> handles = List.of(
            LibIbverbs.Devices.GET_DEVICE_LIST, LibIbverbs.Devices.FREE_DEVICE_LIST, LibIbverbs.Devices.GET_DEVICE_NAME,
            LibIbverbs.Devices.GET_DEVICE_GUID,
            LibIbverbs.Contexts.OPEN_DEVICE, LibIbverbs.Contexts.CLOSE_DEVICE, LibIbverbs.Contexts.QUERY_DEVICE,
            LibIbverbs.Contexts.QUERY_PORT_COMPAT, LibIbverbs.Contexts.QUERY_GID_EX, LibIbverbs.Contexts.QUERY_GID_TABLE,
            LibIbverbs.Contexts.QUERY_PKEY, LibIbverbs.Contexts.QUERY_PORT,
            LibIbverbs.Resources.ALLOC_PD, LibIbverbs.Resources.DEALLOC_PD, LibIbverbs.Resources.REG_MR,
            LibIbverbs.Resources.DEREG_MR, LibIbverbs.Resources.CREATE_COMP_CHANNEL, LibIbverbs.Resources.DESTROY_COMP_CHANNEL,
            LibIbverbs.Resources.CREATE_CQ, LibIbverbs.Resources.DESTROY_CQ, LibIbverbs.Resources.GET_CQ_EVENT,
            LibIbverbs.Resources.ACK_CQ_EVENTS,
            LibIbverbs.QueuePairs.CREATE_QP, LibIbverbs.QueuePairs.MODIFY_QP, LibIbverbs.QueuePairs.QUERY_QP,
            LibIbverbs.QueuePairs.DESTROY_QP, LibIbverbs.QueuePairs.CREATE_AH, LibIbverbs.QueuePairs.DESTROY_AH,
            LibIbverbs.QueuePairs.INIT_AH_FROM_WC,
            LibIbverbs.DataPath.POLL_CQ, LibIbverbs.DataPath.REQ_NOTIFY_CQ, LibIbverbs.DataPath.POST_SEND,
            LibIbverbs.DataPath.POST_RECV);

        assertEquals(33, handles.size());
    }

    @Test
    void shouldListNoDevicesWhenTheLibraryIsAbsent() throws IOException
    {
        final List<String> output = probe("-Drdmacm.libibverbs=libibverbs-absent.so.1", "--enable-native-access=ALL-UNNAMED");

        assertEquals("devices=0", output.get(0));
        assertTrue(output.get(1).startsWith("whyNone=libibverbs-absent.so.1 cannot be loaded ("), output.get(1));
        assertTrue(output.get(1).endsWith("): install the Debian package libibverbs1 (and ibverbs-providers for the device drivers)"),
            output.get(1));
        assertTrue(output.get(2).startsWith("open=ibv_open_device failed: errno 38 ENOSYS: libibverbs-absent.so.1 cannot be loaded"),
            output.get(2));
    }

    @Test
    void shouldListNoDevicesWhenNativeAccessIsDenied() throws IOException
    {
        final List<String> output = probe("--illegal-native-access=deny");

        assertEquals("devices=0", output.get(0));
        assertTrue(output.get(1).startsWith("whyNone=native access to libibverbs.so.1 is denied: start the JVM with "
            + "--enable-native-access=ALL-UNNAMED ("), output.get(1));
    }

    /**
     * The library, and no uverbs device for it to find: libibverbs lists exactly the devices that
     * have a {@code /sys/class/infiniband_verbs/uverbs*} entry. A machine with one fails this under
     * CI=true rather than skipping; the devices themselves are the conformance module's {@code SoftRoceGuestsTest}'s.
     */
    private static void requireLibibverbsWithoutDevices()
    {
        Peers.requireFile(LIBIBVERBS, "libibverbs1");
        final List<String> uverbs = uverbsDevices();
        Peers.require(uverbs.isEmpty(), "a machine without RDMA devices, and this one has " + uverbs
            + " (SoftRoceGuestsTest covers devices)");
    }

    private static List<String> uverbsDevices()
    {
        final Path dir = Path.of("/sys/class/infiniband_verbs");
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("uverbs")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list " + dir + ": " + ex, ex);
        }
    }

    /** Runs {@link ListDevicesProbe} in a child JVM with {@code jvmOptions}; returns its output lines. */
    private static List<String> probe(final String... jvmOptions) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ListDevicesProbe.class.getName()));
        final Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        try
        {
            process.getOutputStream().close();
            final String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS))
            {
                throw new AssertionError("the probe JVM did not finish in 60 s");
            }
            assertEquals(0, process.exitValue(), "probe JVM failed:\n" + stdout + stderr);
            final List<String> lines = stdout.lines().toList();
            assertFalse(lines.size() < 3, "probe printed too little:\n" + stdout + stderr);
            return lines;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the probe JVM", ex);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}

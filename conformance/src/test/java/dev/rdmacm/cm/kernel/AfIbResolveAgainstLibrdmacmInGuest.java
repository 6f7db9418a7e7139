package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.guest.LibrdmacmProgram;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32's AF_IB hand-over, as far as a RoCE-only guest can show it. On InfiniBand the KERNEL back-end resolves
 * its kernel id with an AF_IB RESOLVE_ADDR carrying our GIDs ({@code KernelConnection.connect}: the source
 * {@code sockaddr_ib} with the path's SGID and P_Key and no Service ID, the destination with the DGID, the port's
 * Service ID and a full mask), as librdmacm's ACM path hands ibacm's answer to the kernel. No InfiniBand device
 * exists in a QEMU guest, so the same command is sent on rxe0 (RoCE), with rxe0's GID 0 as the GIDs, by the ucma
 * module and by librdmacm's {@code rdma_resolve_addr} ({@code resolve_af_ib.c}) in the same guest, with our SGID as
 * the source (what the back-end sends) and without a source:
 * <ul>
 *   <li>both get the same answer from the kernel: the write's errno, or the event and its status;</li>
 *   <li>the bytes both write to {@code /dev/infiniband/rdma_cm} for it, seen by {@code strace} on each process, are
 *       equal but for the kernel's id number.</li>
 * </ul>
 * What this does not show: an AF_IB resolution on an InfiniBand port (its device and path lookups), which only
 * real IB hardware or a kernel with an emulated IB device could.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class AfIbResolveAgainstLibrdmacmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PORT = 7531;
    private static final int TIMEOUT_MS = 2000;
    private static final long UID = 0x1bL;
    /** {@code struct rdma_ucm_cmd_hdr} (8 bytes), then {@code rdma_ucm_resolve_addr}: its {@code id} first. */
    private static final int ID_OFFSET = 8;
    /**
     * strace -y -xx's line for a write: the descriptor's path and the bytes, each in hex ({@code -xx} writes the path
     * so too), and the result.
     */
    private static final Pattern WRITE = Pattern.compile(
        "write\\(\\d+<((?:\\\\x[0-9a-f]{2})*)>, \"((?:\\\\x[0-9a-f]{2})*)\", (\\d+)\\) = (.*)$");

    /** The librdmacm side, compiled into the guest's share on the host while the guest boots (KernelGuestSuite). */
    public static final LibrdmacmProgram LIBRDMACM = LibrdmacmProgram.of(AfIbResolveAgainstLibrdmacmInGuest.class, "resolve_af_ib", "-lrdmacm");

    private static Path program;

    @BeforeAll
    static void find()
    {
        program = LIBRDMACM.inGuest();
    }

    /** rxe0's GID 0, from sysfs. */
    private static String gid() throws IOException
    {
        return Files.readString(Path.of("/sys/class/infiniband/rxe0/ports/1/gids/0")).strip();
    }

    private static IbSockaddr source(final String gid)
    {
        return new IbSockaddr(PKey.of(0xffff), 0, Gid.parse(gid), 0, 0, 0);
    }

    private static IbSockaddr destination(final String gid)
    {
        return new IbSockaddr(PKey.of(0xffff), 0, Gid.parse(gid), PortSpace.TCP.serviceId(PORT), -1L, 0);
    }

    /** librdmacm's lines, its program run under {@code strace} into {@code trace} when that is not null. */
    private static List<String> librdmacm(final String sgid, final String dgid, final Path trace)
    {
        final List<String> command = new ArrayList<>();
        if (trace != null)
        {
            command.addAll(List.of("strace", "-f", "-qq", "-e", "trace=write", "-e", "signal=none", "-y", "-xx", "-s", "4096", "-o",
                trace.toString()));
        }
        command.addAll(List.of(program.toString(), sgid == null ? "-" : sgid, dgid, "0x" + Long.toHexString(PortSpace.TCP.serviceId(PORT))));
        final HostCommand.Outcome outcome = HostCommand.run(WAIT, null, command);
        assertEquals(0, outcome.exitStatus(), outcome.output());
        return outcome.output().lines().filter(line -> line.startsWith("resolve") || line.startsWith("event") || line.equals("no event"))
            .toList();
    }

    /** The same steps through the ucma module, written as the program writes them. */
    private static List<String> ours(final String sgid, final String dgid)
    {
        final List<String> lines = new ArrayList<>();
        try (UcmaChannel channel = UcmaChannel.open())
        {
            final int id = channel.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            try
            {
                channel.resolveAddr(id, sgid == null ? null : source(sgid), destination(dgid), TIMEOUT_MS);
            }
            catch (final UcmaException ex)
            {
                lines.add("resolve errno " + ex.errno());
                channel.destroyId(id);
                return lines;
            }
            lines.add("resolve 0");
            final EventResponse event = channel.getEvent(10, TimeUnit.SECONDS);
            lines.add(event == null ? "no event" : "event " + UcmaEventType.of(event.event()).name() + " status " + event.status());
            channel.destroyId(id);
        }
        return lines;
    }

    /** Every write to {@code /dev/infiniband/rdma_cm} in an strace output, as bytes, with its result after them. */
    private record Write(byte[] bytes, String result)
    {
        int command()
        {
            return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        }

        /** The bytes with the kernel's id number zeroed: the one field the kernel, not the caller, chose. */
        byte[] withoutId()
        {
            final byte[] copy = bytes.clone();
            java.util.Arrays.fill(copy, ID_OFFSET, ID_OFFSET + 4, (byte)0);
            return copy;
        }

        @Override
        public String toString()
        {
            return UcmaCommand.values()[command()] + " " + HexFormat.of().formatHex(bytes) + " = " + result;
        }
    }

    /** strace's {@code \\xNN...} as bytes. */
    private static byte[] hex(final String escaped)
    {
        return HexFormat.of().parseHex(escaped.replace("\\x", ""));
    }

    private static List<Write> writes(final Path trace) throws IOException
    {
        final List<Write> writes = new ArrayList<>();
        for (final String line : Files.readAllLines(trace))
        {
            final Matcher m = WRITE.matcher(line);
            if (m.find() && new String(hex(m.group(1)), java.nio.charset.StandardCharsets.UTF_8).equals(UcmaChannel.DEVICE.toString()))
            {
                writes.add(new Write(hex(m.group(2)), m.group(4)));
            }
        }
        return writes;
    }

    /** Our steps with this JVM under {@code strace -p} (every thread traced before the first step, so none is missed). */
    private static List<Write> oursTraced(final String sgid, final String dgid, final Path trace) throws Exception
    {
        final long pid = ProcessHandle.current().pid();
        final Process strace = new ProcessBuilder("strace", "-f", "-qq", "-e", "trace=write", "-e", "signal=none", "-y", "-xx", "-s", "4096",
            "-o", trace.toString(), "-p", Long.toString(pid)).redirectErrorStream(true).start();
        try
        {
            awaitTraced(pid, strace);
            ours(sgid, dgid);
        }
        finally
        {
            // SIGTERM: strace detaches from every thread and writes out what it has
            strace.destroy();
            assertTrue(strace.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "strace -p " + pid + " still runs");
        }
        return writes(trace);
    }

    /** Until every thread of {@code pid} has a tracer ({@code TracerPid} in its status). */
    private static void awaitTraced(final long pid, final Process strace) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (true)
        {
            if (!strace.isAlive())
            {
                throw new AssertionError("strace ended: " + new String(strace.getInputStream().readAllBytes()));
            }
            boolean all = true;
            try (var tasks = Files.list(Path.of("/proc/" + pid + "/task")))
            {
                for (final Path task : tasks.toList())
                {
                    try
                    {
                        all &= Files.readAllLines(task.resolve("status")).stream().anyMatch(line -> line.startsWith("TracerPid:")
                            && !line.endsWith("\t0"));
                    }
                    catch (final IOException gone)
                    {
                        // a thread that ended meanwhile
                    }
                }
            }
            if (all)
            {
                return;
            }
            assertTrue(System.nanoTime() - deadline < 0, "strace did not attach to every thread within " + WAIT);
            Thread.sleep(20);
        }
    }

    /** KernelConnection's hand-over: our SGID as the source; on a RoCE port the kernel's bind refuses an AF_IB source. */
    @Test
    void shouldGetTheSameAnswerToAnAfIbResolveWithOurSgidAsLibrdmacmOnRxe() throws Exception
    {
        sameAnswer(gid(), gid());
    }

    /** No source: the kernel looks for a port of the DGID's subnet itself and resolves on rxe0. */
    @Test
    void shouldGetTheSameAnswerToAnAfIbResolveWithoutASourceAsLibrdmacmOnRxe() throws Exception
    {
        sameAnswer(null, gid());
    }

    @Test
    void shouldWriteTheSameAfIbResolveAddrBytesAsLibrdmacmWithOurSgid() throws Exception
    {
        sameBytes(gid(), gid(), "sgid");
    }

    @Test
    void shouldWriteTheSameAfIbResolveAddrBytesAsLibrdmacmWithoutASource() throws Exception
    {
        sameBytes(null, gid(), "nosource");
    }

    private static void sameAnswer(final String sgid, final String dgid)
    {
        final List<String> theirs = librdmacm(sgid, dgid, null);
        final List<String> ours = ours(sgid, dgid);
        System.out.println("AF_IB RESOLVE_ADDR on rxe0 (source " + sgid + ", destination " + dgid + "): librdmacm " + theirs + ", ours " + ours);
        assertEquals(theirs, ours, "librdmacm's rdma_resolve_addr and ours, AF_IB source " + sgid + " destination " + dgid + " on rxe0");
    }

    private static void sameBytes(final String sgid, final String dgid, final String name) throws Exception
    {
        final Path share = Path.of(System.getenv("RDMACM_GUEST_SHARE"));
        final List<Write> theirs = tracedLibrdmacm(sgid, dgid, share.resolve("af_ib." + name + ".librdmacm.strace"));
        final List<Write> ours = oursTraced(sgid, dgid, share.resolve("af_ib." + name + ".ours.strace"));
        System.out.println("AF_IB (source " + sgid + "): librdmacm's writes to rdma_cm:\n  " + String.join("\n  ",
            theirs.stream().map(Write::toString).toList()) + "\nours:\n  " + String.join("\n  ", ours.stream().map(Write::toString).toList()));
        final List<Write> theirResolve = theirs.stream().filter(w -> w.command() == UcmaCommand.RESOLVE_ADDR.number()).toList();
        final List<Write> ourResolve = ours.stream().filter(w -> w.command() == UcmaCommand.RESOLVE_ADDR.number()).toList();
        assertEquals(1, theirResolve.size(), "librdmacm's RESOLVE_ADDR writes: " + theirs);
        assertEquals(1, ourResolve.size(), "our RESOLVE_ADDR writes: " + ours);
        assertEquals(UcmaCommand.RESOLVE_ADDR.inLength() + 8, ourResolve.get(0).bytes().length, "header and struct");
        assertArrayEquals(theirResolve.get(0).withoutId(), ourResolve.get(0).withoutId(),
            "RESOLVE_ADDR, librdmacm " + theirResolve.get(0) + "\nours " + ourResolve.get(0));
        assertEquals(theirResolve.get(0).result(), ourResolve.get(0).result(), "the write's result");
    }

    private static List<Write> tracedLibrdmacm(final String sgid, final String dgid, final Path trace) throws IOException
    {
        librdmacm(sgid, dgid, trace);
        return writes(trace);
    }
}

package dev.rdmacm.sa.testing;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A TEST DOUBLE of a Subnet Administrator for Soft-RoCE: {@code test_sa_over_umad.c}, a small C
 * program that registers the SA class on one rxe device's {@code /dev/infiniband/umad*} port and
 * answers PathRecord Gets through the kernel's QP1, as scripted (see the C file for what it does and
 * logs). It is no SA: it answers one made-up record, so that a test can send a real SubnAdmGet over a
 * real UD QP and assert on the bytes that crossed the wire in both directions.
 * <p>
 * One process per test: the kernel lets one agent at a time hold the SA class's Get method on a port.
 * {@link #close} stops it through its own PID.
 */
public final class TestSaOverUmad implements AutoCloseable
{
    public static final String BINARY_NAME = "test-sa-over-umad";
    public static final String SOURCE = "test_sa_over_umad.c";
    public static final int CLASS_PORT_INFO = 0x0001;
    public static final int PATH_RECORD = 0x0035;
    private static final Duration POLL = Duration.ofMillis(20);
    private static final HexFormat HEX = HexFormat.of();

    /** What the double does with PathRecord Gets; ClassPortInfo is answered unless it is silent. */
    public record Script(int dropFirst, boolean neverAnswer, String wrongSource, int sl, int wrongSl)
    {
        /** Every Get answered with SL 3. */
        public static Script answering()
        {
            return new Script(0, false, null, 3, 7);
        }

        /** The first {@code count} PathRecord Gets go unanswered; the next is answered. */
        public static Script droppingFirst(final int count)
        {
            return new Script(count, false, null, 3, 7);
        }

        /** Nothing is ever answered. */
        public static Script silent()
        {
            return new Script(0, true, null, 3, 7);
        }

        /** The first PathRecord Get is answered from QP1 of {@code device} with SL 7, the retry from the SA's own port with SL 3. */
        public static Script answeringFirstFrom(final String device)
        {
            return new Script(0, false, device, 3, 7);
        }

        List<String> arguments()
        {
            final List<String> arguments = new ArrayList<>(List.of("--sl", Integer.toString(sl)));
            if (dropFirst > 0)
            {
                arguments.addAll(List.of("--drop-first", Integer.toString(dropFirst)));
            }
            if (neverAnswer)
            {
                arguments.add("--silent");
            }
            if (wrongSource != null)
            {
                arguments.addAll(List.of("--wrong-source", wrongSource, "--wrong-sl", Integer.toString(wrongSl)));
            }
            return arguments;
        }
    }

    /** A MAD the double received on QP1, with the address the kernel's umad reported for it. */
    public record Received(long micros, long tid, int method, int attribute, long componentMask, int qpn, int lid, boolean grh,
        Gid gid, int gidIndex, byte[] mad)
    {
    }

    /** A MAD the double sent, from {@code from}'s QP1, to the address it names. */
    public record Sent(String from, long tid, int method, int attribute, int status, int qpn, long qkey, Gid gid, byte[] mad)
    {
    }

    private final StartedProcess process;
    private final Path log;
    private final String device;

    private TestSaOverUmad(final StartedProcess process, final Path log, final String device)
    {
        this.process = process;
        this.log = log;
        this.device = device;
    }

    /** Compiles the double with gcc against libibumad into {@code directory}; returns the binary. */
    public static Path compile(final Path directory)
    {
        Peers.requireFile("/usr/include/infiniband/umad.h", "libibumad-dev");
        return CProgram.compile(TestSaOverUmad.class, SOURCE, directory, BINARY_NAME, "-O1", "-Wall", "-Werror", "-libumad");
    }

    /**
     * Starts {@code binary} on port 1 of {@code device}, logging to {@code log}, and waits until it has
     * registered its agents.
     *
     * @throws AssertionError with its log when it reports an error, exits or is not ready within {@code limit}.
     */
    public static TestSaOverUmad start(final Path binary, final String device, final Script script, final Path log,
        final Duration limit)
    {
        final List<String> command = new ArrayList<>(List.of(binary.toString(), "--device", device, "--port", "1"));
        command.addAll(script.arguments());
        final StartedProcess process = StartedProcess.start("the umad SA test double", command, binary.getParent(), Map.of(), log);
        final TestSaOverUmad sa = new TestSaOverUmad(process, log, device);
        final long deadline = System.nanoTime() + limit.toNanos();
        while (true)
        {
            final List<String> lines = sa.lines();
            if (lines.stream().anyMatch(l -> l.startsWith("ready ")))
            {
                return sa;
            }
            if (lines.stream().anyMatch(l -> l.startsWith("error ")) || !process.isAlive() || System.nanoTime() - deadline > 0)
            {
                sa.close();
                throw new AssertionError("the umad SA test double did not become ready (" + String.join(" ", command) + "):\n" +
                    String.join("\n", sa.lines()));
            }
            sleep();
        }
    }

    /** Every MAD received so far. */
    public List<Received> received()
    {
        return parse("recv ", fields -> new Received(Long.parseLong(fields.get("t")), tid(fields), hexInt(fields.get("method")),
            hexInt(fields.get("attr")), Long.parseUnsignedLong(fields.get("mask").substring(2), 16), Integer.parseInt(fields.get("qpn")),
            Integer.parseInt(fields.get("lid")), "1".equals(fields.get("grh")), gid(fields.get("gid")),
            Integer.parseInt(fields.get("gid_index")), HEX.parseHex(fields.get("mad"))));
    }

    /** Every MAD sent so far. */
    public List<Sent> sent()
    {
        return parse("send ", fields -> new Sent(fields.get("from"), tid(fields), hexInt(fields.get("method")),
            hexInt(fields.get("attr")), hexInt(fields.get("status")), Integer.parseInt(fields.get("qpn")),
            Long.parseLong(fields.get("qkey").substring(2), 16), gid(fields.get("gid")), HEX.parseHex(fields.get("mad"))));
    }

    /** The Gets of {@code attribute} received, once there are at least {@code count} or {@code limit} has passed. */
    public List<Received> awaitReceived(final int attribute, final int count, final Duration limit)
    {
        final long deadline = System.nanoTime() + limit.toNanos();
        List<Received> gets;
        while ((gets = received().stream().filter(r -> r.attribute() == attribute).toList()).size() < count &&
            System.nanoTime() - deadline < 0)
        {
            sleep();
        }
        return gets;
    }

    /** The answers to {@code attribute} sent, once there are at least {@code count} or {@code limit} has passed. */
    public List<Sent> awaitSent(final int attribute, final int count, final Duration limit)
    {
        final long deadline = System.nanoTime() + limit.toNanos();
        List<Sent> answers;
        while ((answers = sent().stream().filter(s -> s.attribute() == attribute).toList()).size() < count &&
            System.nanoTime() - deadline < 0)
        {
            sleep();
        }
        return answers;
    }

    /** The whole log, for failure messages. */
    public String log()
    {
        return "--- umad SA test double on " + device + " (" + log + ") ---\n" + String.join("\n", lines());
    }

    /** Stops the double through its own PID: SIGTERM, then SIGKILL after 3 s. */
    @Override
    public void close()
    {
        process.close();
    }

    private <T> List<T> parse(final String kind, final Function<Map<String, String>, T> decode)
    {
        final List<T> events = new ArrayList<>();
        for (final String line : lines())
        {
            // A line still being written has no newline yet and is not in lines(); every complete one is whole.
            if (line.startsWith(kind))
            {
                final Map<String, String> fields = new HashMap<>();
                for (final String token : line.substring(kind.length()).split(" "))
                {
                    final int equals = token.indexOf('=');
                    fields.put(token.substring(0, equals), token.substring(equals + 1));
                }
                events.add(decode.apply(fields));
            }
        }
        return events;
    }

    private List<String> lines()
    {
        try
        {
            final String text = Files.readString(log, StandardCharsets.ISO_8859_1);
            final int end = text.lastIndexOf('\n');
            return end < 0 ? List.of() : text.substring(0, end).lines().toList();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read the umad SA test double's log " + log + ": " + ex, ex);
        }
    }

    private static long tid(final Map<String, String> fields)
    {
        return Long.parseUnsignedLong(fields.get("tid").substring(2), 16);
    }

    private static int hexInt(final String text)
    {
        return Integer.parseInt(text.substring(2), 16);
    }

    private static Gid gid(final String hex)
    {
        return Gid.fromBytes(HEX.parseHex(hex), 0);
    }

    private static void sleep()
    {
        try
        {
            Thread.sleep(POLL.toMillis());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the umad SA test double", ex);
        }
    }
}

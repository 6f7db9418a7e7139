package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.HostCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm mckey --cm kernel}, whose joins go through the kernel's CM (JOIN_MCAST, LEAVE_MCAST), against the
 * real {@code mckey} (librdmacm over the same kernel CM) in the kernel guest on rxe0, both ways: the real one sends
 * while ours receives, and ours sends while the real one receives. A receiver ends only when every datagram came,
 * so its exit status and lines are the verdict, and both sides' {@code joined} lines (the group's DGID, MLID and SL,
 * as the kernel answered each) must be equal. While ours is joined, {@code rdma resource} lists one more kernel CM
 * id of RDMA_PS_UDP (the join went through the kernel, not this stack's own multicast); after, the host's CM ids
 * (RDMA_PS_UDP) are as before.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
public class McKeyThroughKernelCmInGuest
{
    /**
     * A line of {@code rdma resource show cm_id} for a device of the wire to the other guest ({@code GuestWire}'s rxew0
     * and rxew1): the cases across the wire run their peers' UDP ids there beside the suite (McKeyAcrossTheWire's
     * mckey), so the counts leave it out.
     */
    private static final Pattern WIRE_DEVICE = Pattern.compile("^(link|dev) rxew\\d+\\b");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String MESSAGES = "4";
    private static final String TO_OURS = "239.255.34.1";
    private static final String TO_KERNEL = "239.255.34.2";
    /** The Ethernet multicast address of {@link #TO_KERNEL} (01:00:5e and the low 23 bits), which the kernel's join adds to k0. */
    private static final String TO_KERNEL_MAC = "01:00:5e:7f:22:02";

    @Test
    void shouldReceiveEveryDatagramTheRealMckeySendsWithRdmacmMckeyThroughTheKernelCm() throws Exception
    {
        final long before = udpIds();
        final ByteArrayOutputStream ours = new ByteArrayOutputStream();
        final CompletableFuture<Integer> receiver = CompletableFuture.supplyAsync(() ->
            RdmacmInThisJvm.run(ours, "mckey", "-m", TO_OURS, "-b", OWN_IPV4, "-C", MESSAGES, "--cm", "kernel"));
        awaitLine(ours, "mckey: joined", receiver);
        final long joined = udpIds();
        final Process sender = new ProcessBuilder("mckey", "-m", TO_OURS, "-b", OWN_IPV4, "-s", "-C", MESSAGES)
            .redirectErrorStream(true).start();
        final String theirs = finished(sender);
        final int status = receiver.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        final String text = ours.toString(StandardCharsets.UTF_8);

        assertEquals(0, sender.exitValue(), "mckey -s:\n" + theirs + "\nrdmacm mckey:\n" + text);
        assertEquals(0, status, "rdmacm mckey:\n" + text + "\nmckey -s:\n" + theirs);
        assertMckeyLines("server", "receiving data transfers", text);
        assertEquals(joinedLine(theirs), joinedLine(text), "the group's dgid, mlid and sl");
        assertEquals(before + 1, joined, "ours joined, before the real sender started, holds one kernel CM id of RDMA_PS_UDP");
        assertEquals(before, udpIdsBackTo(before), "RDMA_PS_UDP CM ids after");
    }

    @Test
    void shouldSendEveryDatagramTheRealMckeyReceivesWithRdmacmMckeyThroughTheKernelCm() throws Exception
    {
        final long before = udpIds();
        final Process receiver = new ProcessBuilder("mckey", "-m", TO_KERNEL, "-b", OWN_IPV4, "-C", MESSAGES)
            .redirectErrorStream(true).start();
        try
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (!HostCommand.run(WAIT, "ip", "maddr", "show", "dev", "k0").output().contains(TO_KERNEL_MAC))
            {
                assertTrue(receiver.isAlive() && System.nanoTime() - deadline < 0, "the real mckey did not join " + TO_KERNEL);
                Thread.sleep(100);
            }
            final ByteArrayOutputStream ours = new ByteArrayOutputStream();
            final int status = RdmacmInThisJvm.run(ours, "mckey", "-m", TO_KERNEL, "-b", OWN_IPV4, "-s", "-C", MESSAGES, "--cm", "kernel");
            final String theirs = finished(receiver);
            final String text = ours.toString(StandardCharsets.UTF_8);

            assertEquals(0, status, "rdmacm mckey -s:\n" + text + "\nmckey:\n" + theirs);
            assertEquals(0, receiver.exitValue(), "mckey:\n" + theirs + "\nrdmacm mckey -s:\n" + text);
            assertMckeyLines("client", "initiating data transfers", text);
            assertMckeyLines("server", "receiving data transfers", theirs);
            assertEquals(joinedLine(theirs), joinedLine(text), "the group's dgid, mlid and sl");
        }
        finally
        {
            receiver.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(before, udpIdsBackTo(before), "RDMA_PS_UDP CM ids after");
    }

    /** mckey's lines from start to end: each one once, in mckey's order, the transfer's as its role prints it. */
    private static void assertMckeyLines(final String role, final String transfer, final String output)
    {
        final List<String> lines = output.lines().toList();
        assertEquals(7, lines.size(), output);
        assertEquals(List.of("mckey: starting " + role, "mckey: joining"), lines.subList(0, 2), output);
        assertTrue(lines.get(2).startsWith("mckey: joined dgid: "), output);
        assertEquals(List.of(transfer, "data transfers complete", "test complete", "return status 0"), lines.subList(3, 7), output);
    }

    private static String joinedLine(final String output)
    {
        return output.lines().filter(line -> line.startsWith("mckey: joined")).findFirst().orElse("no joined line in:\n" + output);
    }

    /** Waits until {@code output} has a line starting with {@code prefix}, while {@code run} has not ended. */
    private static void awaitLine(final ByteArrayOutputStream output, final String prefix, final CompletableFuture<Integer> run)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (output.toString(StandardCharsets.UTF_8).lines().noneMatch(line -> line.startsWith(prefix)))
        {
            assertTrue(!run.isDone() && System.nanoTime() - deadline < 0, "no '" + prefix + "' line:\n" +
                output.toString(StandardCharsets.UTF_8));
            Thread.sleep(50);
        }
    }

    /** The host's RDMA_PS_UDP CM ids ({@code rdma resource}): the multicast ids', none of the connections other cases make. */
    private static long udpIds()
    {
        return HostCommand.run(WAIT, "rdma", "resource", "show", "cm_id").orFail("rdma resource show cm_id").output().lines()
            .filter(line -> line.contains(" ps UDP ") && !WIRE_DEVICE.matcher(line).find()).count();
    }

    /** The host's RDMA_PS_UDP CM ids once they are {@code before} again (the real mckey's go as its process ends), or as they stay. */
    private static long udpIdsBackTo(final long before) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        long now = udpIds();
        while (now != before && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(100);
            now = udpIds();
        }
        return now;
    }

    /** Waits for {@code process} and returns its output (stdout and stderr); one that does not end is killed. */
    private static String finished(final Process process) throws Exception
    {
        final CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return out.get(10, TimeUnit.SECONDS);
    }

    private static String read(final InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}

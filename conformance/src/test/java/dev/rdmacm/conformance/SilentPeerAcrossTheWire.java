package dev.rdmacm.conformance;

import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.testing.Tshark;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * A silent peer: an address on the wire that a permanent neighbour entry in each guest maps to a MAC no
 * NIC has, so that the REQ goes out and nothing ever answers. The kernel's {@code rping -c} in its guest
 * and {@code rdmacm rping -c} in ours both connect to it with rdma_cm's own REQ values (response
 * timeouts 20, 15 retries), which take about 98 s on RoCE; so both are started before the guests'
 * suites and run beside them (they use only the wire devices, which the suites do not, and the CM
 * agent on rxew0 is this case's alone until the suites end). Each guest captures its own REQs.
 * <p>
 * The kernel is the oracle: ours must send as many REQs as it does (1 + the REQ's Max CM Retries, as
 * tshark reads it), no retry sooner than the kernel's shortest wait (load only makes waits longer, so
 * that bound holds on a busy machine), and end with the same {@code RDMA_CM_EVENT_UNREACHABLE, error
 * -110}. The waits of both are written to {@code silent-peer.txt} in the userspace guest's share.
 */
final class SilentPeerAcrossTheWire
{
    static final String ADDRESS = "172.31.60.99";
    /**
     * A capture filter that leaves out the REQs to this case's address and to KernelCmSilentPeerInGuest's (172.31.60.98),
     * which may still go on when the cases across the wire begin (the guests' NICs capture promiscuously).
     */
    static final String NEITHER_SILENT_PEER = "not host " + ADDRESS + " and not host 172.31.60.98";
    private static final String MAC = "02:00:00:00:60:99";
    private static final String NAME = "silent";
    private static final Duration JOB = Duration.ofSeconds(30);
    /** 16 REQs 6144 ms apart and a guest JVM's start, with room for a loaded machine. */
    private static final Duration RUN = Duration.ofSeconds(200);
    /**
     * Our median wait may be this much shorter than the kernel's shortest and still count as the same:
     * the kernel's waits measured 6.30-6.46 s, 150-310 ms over cm.c's 6144 ms (its MAD layer's timer
     * starts at the send completion, on jiffies), ours 6.10-6.17 s from capture to capture. The median,
     * because a REQ that leaves late on a loaded machine shortens the wait after it: the first REQ of
     * one CI run (2026-12-02, 16:41) went out about 200 ms after its timer started, and its wait
     * measured 5.938 s, the other 14 6.005-6.287 s.
     */
    private static final double SLACK = 0.95;

    private final GuestPair guests;
    private final GuestResult ourRun;
    private final GuestResult kernelRun;

    private SilentPeerAcrossTheWire(final GuestPair guests, final GuestResult ourRun, final GuestResult kernelRun)
    {
        this.guests = guests;
        this.ourRun = ourRun;
        this.kernelRun = kernelRun;
    }

    /**
     * Starts our client, with its capture, in the background of the userspace guest. It is that guest's
     * first Java main, and the training run of the AOT cache of the later ones ({@link GuestJavaMain}).
     */
    static GuestResult startOurs(final KernelGuest ours)
    {
        return start(ours, GuestWire.USERSPACE_CM, RpingAcrossTheWire.javaTraining(ours, "rping-silent-peer", "rping", "-c", "-a",
            ADDRESS, "-C", "1", "-d", "--trace"));
    }

    /** Starts the kernel's client, with its capture, in the background of the kernel guest. */
    static GuestResult startKernel(final KernelGuest kernel)
    {
        return start(kernel, GuestWire.KERNEL_CM, "rping -c -a " + ADDRESS + " -C 1 -d");
    }

    /**
     * The silent peer's neighbour entry, then, in the guest's background, the capture and, once its file has begun,
     * {@code client}: the job returns at once, so that the guest's suite starts while dumpcap does (seconds under
     * TCG, on the critical path when the job waited for it). A capture that does not begin ends the background job
     * with 1 before the client starts, and {@link #finish} reports that.
     */
    private static GuestResult start(final KernelGuest guest, final GuestWire.End end, final String client)
    {
        final Path script = guest.sharedDirectory().resolve("silent-peer-start.sh");
        final String pcap = guest.guestPathOf(pcapOf(guest));
        try
        {
            Files.writeString(script, RpingAcrossTheWire.startCapture(pcap, "udp port 4791 and src host " + end.address() + " and dst host "
                + ADDRESS, NAME) + "\n" + client + "\n");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + script, ex);
        }
        return guest.run(JOB, "ip neigh replace " + ADDRESS + " lladdr " + MAC + " dev " + GuestWire.NETDEV + " nud permanent || exit 1\n"
            + RpingAcrossTheWire.background("sh " + guest.guestPathOf(script), NAME));
    }

    /**
     * Waits for the client that {@code start} started in {@code guest} to end, and stops the capture;
     * each guest's own thread does this for its guest after its suite, so the two wait at once.
     */
    static GuestResult finish(final KernelGuest guest, final GuestResult start)
    {
        final GuestResult run = start.succeeded() ? guest.run(RUN, RpingAcrossTheWire.collect(NAME, RUN)) : start;
        guest.run(JOB, RpingAcrossTheWire.stopCapture(NAME));
        return run;
    }

    /** The checks of what both clients did, once each guest has {@link #finish finished} its own. */
    static List<DynamicTest> checks(final GuestPair guests, final GuestResult ourRun, final GuestResult kernelRun)
    {
        return new SilentPeerAcrossTheWire(guests, ourRun, kernelRun).checks();
    }

    private List<DynamicTest> checks()
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final List<DynamicTest> tests = new ArrayList<>();
        tests.add(dynamicTest("shouldEndWithUnreachableTimedOutAsTheKernelDoesWhenThePeerIsSilent()", () ->
        {
            final String unreachable = "cma event RDMA_CM_EVENT_UNREACHABLE, error -110";
            assertTrue(kernelRun.stderr().contains(unreachable), kernelRun.describe());
            assertTrue(ourRun.stderr().contains(unreachable), ourRun.describe());
            assertEquals(kernelRun.exitStatus(), ourRun.exitStatus(), ourRun.describe() + "\n" + kernelRun.describe());
        }));
        tests.add(dynamicTest("shouldSendAsManyRequestsAsTheKernelNoSoonerThanItDoes()", () ->
        {
            final List<Double> kernelTimes = requestTimes(pcapOf(kernel));
            final List<Double> ourTimes = requestTimes(pcapOf(ours));
            final List<Double> kernelWaits = waits(kernelTimes);
            final List<Double> ourWaits = waits(ourTimes);
            Files.writeString(ours.sharedDirectory().resolve("silent-peer.txt"), "kernel REQ waits (s): " + kernelWaits
                + "\nour REQ waits (s): " + ourWaits + "\n");
            final int tries = 1 + Integer.decode(Tshark.decode(pcapOf(kernel), "infiniband.cm.req.maxcmretr").get(0)
                .get("infiniband.cm.req.maxcmretr").get(0));
            assertEquals(tries, kernelTimes.size(), "the kernel's REQs " + kernelTimes);
            assertEquals(kernelTimes.size(), ourTimes.size(), "our REQs " + ourTimes + ", the kernel's " + kernelTimes);
            final double shortest = kernelWaits.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            final double median = ourWaits.stream().sorted().toList().get(ourWaits.size() / 2);
            assertTrue(median >= shortest * SLACK, "our median wait " + median + " s of " + ourWaits
                + " against the kernel's shortest " + shortest + " s");
        }));
        tests.add(dynamicTest("shouldTraceTheRequestGoingBackToIdleAfterItsLastTry()", () ->
        {
            final List<String> states = ourRun.stderr().lines().filter(line -> line.startsWith("cm 0x"))
                .map(line -> line.replaceAll("^cm 0x[0-9a-f]+ (\\S+ -> \\S+) at .*$", "$1")).toList();
            assertEquals(List.of("IDLE -> REQ_SENT", "REQ_SENT -> IDLE"), states, ourRun.stderr());
        }));
        return tests;
    }

    private static Path pcapOf(final KernelGuest guest)
    {
        return guest.sharedDirectory().resolve("silent-peer.pcap");
    }

    /** The capture times of the REQs in {@code pcap}, as tshark reads them. */
    private static List<Double> requestTimes(final Path pcap)
    {
        final List<Double> times = new ArrayList<>();
        for (final Map<String, List<String>> frame : Tshark.decode(pcap, "frame.time_epoch", "infiniband.mad.attributeid"))
        {
            final List<String> attribute = frame.get("infiniband.mad.attributeid");
            if (attribute != null && !attribute.isEmpty() && Integer.decode(attribute.get(0)) == CmAttribute.REQ.id())
            {
                times.add(Double.parseDouble(frame.get("frame.time_epoch").get(0)));
            }
        }
        return times;
    }

    private static List<Double> waits(final List<Double> times)
    {
        final List<Double> waits = new ArrayList<>();
        for (int i = 1; i < times.size(); i++)
        {
            waits.add(Math.round((times.get(i) - times.get(i - 1)) * 1000) / 1000.0);
        }
        return waits;
    }
}

package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma-core cmtime's first steps for {@value #IDS} ids (create id, resolve addr, resolve route, destroy
 * id; each step for every id before the next), the kernel CM through the real librdmacm
 * ({@code cm_oracle cmtime}) against ours, in the same guest, one after the other. A benchmark, not a
 * timed assertion: the test checks that every id resolved and writes the figures and their ratios to
 * {@value #REPORT} in the share, which SoftRoceGuestsTest (conformance module) prints. Each side runs
 * {@value #ROUNDS} rounds and reports its fastest, so JIT warm-up is not counted against us.
 */
public class CmTimeAgainstKernelCmInGuest
{
    public static final String REPORT = "cmtime.txt";
    private static final int IDS = 100;
    private static final int ROUNDS = 3;
    private static final int TIMEOUT_MS = 2000;
    private static final List<String> STEPS = List.of("create_id", "resolve_addr", "resolve_route", "destroy_id");

    @Test
    void shouldTimeCmtimesStepsBesideTheKernelCm() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final Map<String, Long> kernel = fastest(() -> kernelRound(Path.of(share, "cm_oracle")));
        final Map<String, Long> ours;
        try (RdmaCm cm = RdmaCm.open())
        {
            ours = fastest(() -> ourRound(cm));
        }
        final StringBuilder report = new StringBuilder(String.format("cmtime, %d ids to %s, fastest of %d rounds%n",
            IDS, KernelCmGuest.PEER_IPV4, ROUNDS));
        report.append(String.format("%-14s %12s %12s %8s%n", "step", "kernel us", "ours us", "ratio"));
        for (final String step : STEPS)
        {
            report.append(String.format("%-14s %12d %12d %8.2f%n", step, kernel.get(step), ours.get(step),
                (double)ours.get(step) / Math.max(1, kernel.get(step))));
        }
        Files.writeString(Path.of(share, REPORT), report);
        assertEquals(STEPS, List.copyOf(ours.keySet()));
    }

    private interface Round
    {
        Map<String, Long> run() throws Exception;
    }

    private static Map<String, Long> fastest(final Round round) throws Exception
    {
        final Map<String, Long> best = new LinkedHashMap<>();
        for (int i = 0; i < ROUNDS; i++)
        {
            round.run().forEach((step, us) -> best.merge(step, us, Math::min));
        }
        return best;
    }

    private static Map<String, Long> kernelRound(final Path oracle)
    {
        final String output = HostCommand.run(Duration.ofMinutes(1), oracle.toString(), "cmtime", Integer.toString(IDS),
            KernelCmGuest.PEER_IPV4, Integer.toString(TIMEOUT_MS)).orFail("cm_oracle cmtime").output();
        assertTrue(!output.contains("error="), output);
        final Map<String, Long> steps = new LinkedHashMap<>();
        final Map<String, Map<String, String>> parsed = KernelCmOracle.parse(output);
        parsed.get("cmtime").forEach((key, value) -> steps.put(key.replace("_us", ""), Long.parseLong(value)));
        return steps;
    }

    private static Map<String, Long> ourRound(final RdmaCm cm) throws Exception
    {
        final Map<String, Long> steps = new LinkedHashMap<>();
        final InetAddress destination = InetAddress.getByName(KernelCmGuest.PEER_IPV4);
        try (EventChannel channel = cm.createEventChannel())
        {
            final List<RdmaCmId> ids = new ArrayList<>(IDS);
            long start = System.nanoTime();
            for (int i = 0; i < IDS; i++)
            {
                ids.add(cm.createId(channel));
            }
            steps.put("create_id", micros(start));
            start = System.nanoTime();
            for (final RdmaCmId id : ids)
            {
                id.resolveAddr((InetAddress)null, destination, Duration.ofMillis(TIMEOUT_MS));
            }
            awaitAll(channel, CmEventType.ADDR_RESOLVED);
            steps.put("resolve_addr", micros(start));
            start = System.nanoTime();
            for (final RdmaCmId id : ids)
            {
                id.resolveRoute(Duration.ofMillis(TIMEOUT_MS));
            }
            awaitAll(channel, CmEventType.ROUTE_RESOLVED);
            steps.put("resolve_route", micros(start));
            start = System.nanoTime();
            ids.forEach(RdmaCmId::destroy);
            steps.put("destroy_id", micros(start));
        }
        return steps;
    }

    private static void awaitAll(final EventChannel channel, final CmEventType expected) throws InterruptedException
    {
        for (int i = 0; i < IDS; i++)
        {
            final CmEvent event = channel.getEvent(Duration.ofMillis(TIMEOUT_MS + 5_000L));
            assertTrue(event != null && event.type() == expected, "event " + i + " of " + IDS + ": " + event);
            event.ack();
        }
    }

    private static long micros(final long startNanos)
    {
        return (System.nanoTime() - startNanos) / 1_000;
    }
}

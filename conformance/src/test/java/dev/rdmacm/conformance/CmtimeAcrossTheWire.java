package dev.rdmacm.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.cli.JsonVocabulary;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * rdma-core's {@code cmtime} across the wire, with the real {@code cmtime} server over the kernel's CM
 * in the kernel guest as the one peer of both measured clients, both run in the userspace-CM guest:
 * <ol>
 *   <li>{@code rdmacm cmtime -s} (this project's CM), {@code rounds} rounds in one JVM;</li>
 *   <li>then the real {@code cmtime -s} over the kernel's CM in the same guest: {@code rdma_ucm} (with
 *       ib_cm) is loaded for it and unloaded after, so nothing else may use the CM class on umad then.</li>
 * </ol>
 * Same guest, same wire, same server: the per-step ratios compare the two active sides alone. Ours
 * prints its rounds with {@code --json}, held to docs/json.md's cmtime object, every connection's times in it. First,
 * the kernel's {@code cmtime} client against {@code rdmacm cmtime}'s server: the interop at a hundred
 * connections the other way. Each side's fastest round counts, so the JVM's warm-up is not in the ratio;
 * the figures go to the build log and to {@value #REPORT} in the userspace guest's share.
 */
final class CmtimeAcrossTheWire
{
    static final String REPORT = "cmtime-connections.txt";
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int CONNECTIONS = 100;
    /** One round a side in CI: the benchmark (benchmarks/run-cmtime-guests) runs more, for the figures. */
    static final int ROUNDS = 1;
    private static final int KERNEL_SERVER_PORT = 7181;
    private static final int OUR_SERVER_PORT = 7182;
    private static final Duration JOB = Duration.ofSeconds(30);
    /**
     * A guest JVM's start under TCG: 37 s in CI with the guest mains' AOT cache, more than 90 s without it
     * in a freshly booted pair on a busy machine (the benchmark's, 2026-12-02), which has no training run.
     */
    private static final Duration JVM_START = Duration.ofSeconds(180);
    private static final List<String> STEPS = List.of("create id", "resolve addr", "resolve route", "create qp", "connect",
        "disconnect", "destroy");
    /**
     * A row of cmtime's table: {@code %-13s: %11.2f%11.2f%11.2f%11.2f}, the step and its total ms first. A
     * value wider than 11 runs into its neighbour, as printf prints it (1,000 connections: a first connect
     * after 12 s is {@code 12319508.00} min us, right after the max), so only the total is read.
     */
    private static final Pattern ROW = Pattern.compile("^(\\S.{0,12}?)\\s*:\\s+(\\d+\\.\\d\\d)\\s+[0-9. ]+$");

    private CmtimeAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        return measure(guests, CONNECTIONS, ROUNDS).checks();
    }

    /** Runs all three and gives what they showed, as tests and as the report. */
    static Measured measure(final GuestPair guests, final int connections, final int rounds)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final Duration run = Duration.ofSeconds(90 + connections * rounds / 2);

        final GuestResult ourServer = ours.run(JVM_START, started(RpingAcrossTheWire.java(ours, "cmtime-s", "cmtime", "-b", ourAddress, "-p",
            Integer.toString(OUR_SERVER_PORT)), "our-cmtime-s") + "\n" + RpingAcrossTheWire.untilListeningIn("our-cmtime-s"));
        final GuestResult kernelAgainstUs = ourServer.succeeded()
            ? kernel.run(run, "cmtime -s " + ourAddress + " -p " + OUR_SERVER_PORT + " -c " + connections)
            : ourServer;
        final GuestResult ourServerStopped = ours.run(JOB, stopped("our-cmtime-s"));

        final GuestResult kernelServer = kernel.run(JOB, started("cmtime -b " + kernelAddress + " -p " + KERNEL_SERVER_PORT,
            "kernel-cmtime-s") + "\n" + RpingAcrossTheWire.untilListening(kernelAddress, KERNEL_SERVER_PORT));
        final GuestResult ourClient = kernelServer.succeeded()
            ? ours.run(run, RpingAcrossTheWire.java(ours, "cmtime-c", "cmtime", "-s", kernelAddress, "-p",
                Integer.toString(KERNEL_SERVER_PORT), "-c", Integer.toString(connections), "--rounds", Integer.toString(rounds), "--json"))
            : kernelServer;
        final GuestResult kernelClient = kernelServer.succeeded()
            ? ours.run(run, "modprobe rdma_ucm || exit 97\nstatus=0\nfor r in $(seq " + rounds + "); do cmtime -s " + kernelAddress
                + " -p " + KERNEL_SERVER_PORT + " -c " + connections + " || status=$?; done\n"
                + "modprobe -r rdma_ucm rdma_cm iw_cm ib_cm || exit 98\n[ ! -e /sys/module/ib_cm ] || exit 99\nexit $status")
            : kernelServer;
        final GuestResult kernelServerStopped = kernel.run(JOB, stopped("kernel-cmtime-s"));
        return new Measured(connections, rounds, ourServer, kernelAgainstUs, ourServerStopped, kernelServer, ourClient, kernelClient,
            kernelServerStopped, ours);
    }

    /** What the runs gave. */
    record Measured(int connections, int rounds, GuestResult ourServer, GuestResult kernelAgainstUs, GuestResult ourServerStopped,
                    GuestResult kernelServer, GuestResult ourClient, GuestResult kernelClient, GuestResult kernelServerStopped,
                    KernelGuest ours)
    {
        List<DynamicTest> checks()
        {
            final String report = report();
            System.out.print(report);
            writeReport(report);
            return List.of(
                dynamicTest("shouldServeTheKernelsCmtimeClientWithRdmacmCmtime()", () ->
                {
                    assertEquals(0, ourServer.exitStatus(), ourServer.describe());
                    assertCompleted(kernelAgainstUs, 1);
                    assertEquals(0, ourServerStopped.exitStatus(), ourServerStopped.describe());
                }),
                dynamicTest("shouldTimeEveryStepOfRdmacmCmtimeAgainstTheKernelsCmtimeServer()", () ->
                {
                    assertEquals(0, kernelServer.exitStatus(), kernelServer.describe());
                    assertCompletedInJson(ourClient, rounds, connections);
                }),
                dynamicTest("shouldTimeTheKernelsCmtimeClientInTheSameGuestAgainstTheSameServer()", () ->
                {
                    assertCompleted(kernelClient, rounds);
                    assertEquals(0, kernelServerStopped.exitStatus(), kernelServerStopped.describe());
                }));
        }

        /** Per step the fastest round of each client, in ms, and ours over the kernel's. */
        String report()
        {
            final Map<String, Double> kernel = fastest(tables(kernelClient.stdout()));
            final Map<String, Double> ourSteps = fastest(jsonTables(ourClient.stdout()));
            final StringBuilder text = new StringBuilder(String.format("cmtime connections, %d to the kernel's cmtime server, fastest "
                + "of %d rounds%n%-14s %12s %12s %8s%n", connections, rounds, "step", "kernel ms", "ours ms", "ratio"));
            for (final String step : STEPS)
            {
                final Double k = kernel.get(step);
                final Double o = ourSteps.get(step);
                text.append(String.format("%-14s %12s %12s %8s%n", step, k == null ? "-" : String.format("%.2f", k),
                    o == null ? "-" : String.format("%.2f", o), k == null || o == null ? "-" : String.format("%.2f", o / Math.max(k, 0.01))));
            }
            text.append(String.format("%-14s %12s %12s%n", "conn/s", perSecond(kernel), perSecond(ourSteps)));
            return text.toString();
        }

        private String perSecond(final Map<String, Double> steps)
        {
            final Double connect = steps.get("connect");
            final Double disconnect = steps.get("disconnect");
            return connect == null || disconnect == null ? "-" : String.format("%.0f", connections * 1000 / (connect + disconnect));
        }

        private void writeReport(final String report)
        {
            try
            {
                Files.writeString(ours.sharedDirectory().resolve(REPORT), report);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot write " + REPORT, ex);
            }
        }
    }

    /** Exit 0, no connection that failed (cmtime's {@code event: ...} and error lines), and a full table per round. */
    private static void assertCompleted(final GuestResult client, final int rounds)
    {
        assertEquals(0, client.exitStatus(), client.describe());
        assertEquals(List.of(), client.stdout().lines().filter(line -> line.startsWith("event:") || line.startsWith("RDMA_CM_EVENT_"))
            .toList(), client.describe());
        final List<Map<String, Double>> tables = tables(client.stdout());
        assertEquals(rounds, tables.size(), client.describe());
        tables.forEach(table -> assertEquals(STEPS, List.copyOf(table.keySet()), client.describe()));
        assertEquals(List.of(), client.stderr().lines().filter(line -> line.startsWith("failure")).toList(), client.describe());
    }

    /** Every table in cmtime's output, step to total ms. */
    static List<Map<String, Double>> tables(final String output)
    {
        final List<Map<String, Double>> tables = new ArrayList<>();
        Map<String, Double> table = null;
        for (final String line : output.lines().toList())
        {
            if (line.startsWith("step ") && line.contains("total ms"))
            {
                table = new LinkedHashMap<>();
                tables.add(table);
                continue;
            }
            final Matcher row = ROW.matcher(line);
            if (table != null && row.matches())
            {
                table.put(row.group(1).strip(), Double.parseDouble(row.group(2)));
            }
        }
        return tables;
    }

    private static Map<String, Double> fastest(final List<Map<String, Double>> tables)
    {
        final Map<String, Double> best = new LinkedHashMap<>();
        tables.forEach(table -> table.forEach((step, ms) -> best.merge(step, ms, Math::min)));
        return best;
    }

    /**
     * {@code rdmacm cmtime --json}'s rounds as {@link #tables} reads the text: step (the table's label) to
     * total ms; empty for output that is not docs/json.md's cmtime object.
     */
    static List<Map<String, Double>> jsonTables(final String output)
    {
        final List<Map<String, Double>> tables = new ArrayList<>();
        final JsonNode json;
        try
        {
            json = JSON.readTree(output.strip());
        }
        catch (final IOException ex)
        {
            return tables;
        }
        for (final JsonNode round : json.path("rounds"))
        {
            final Map<String, Double> table = new LinkedHashMap<>();
            for (final JsonNode step : round.path("steps"))
            {
                final String name = step.path("step").asText();
                table.put(name.equals("bind") ? "bind addr" : name.replace('_', ' '), step.path("total_us").asLong() / 1000.0);
            }
            tables.add(table);
        }
        return tables;
    }

    /**
     * Exit 0, one object as docs/json.md writes cmtime's, every round ok with every step, and every
     * connection's time of every step there.
     */
    private static void assertCompletedInJson(final GuestResult client, final int rounds, final int connections)
    {
        assertEquals(0, client.exitStatus(), client.describe());
        final JsonVocabulary vocabulary = JsonVocabulary.ofThisCheckout();
        final JsonNode json = vocabulary.check(vocabulary.resultOf("cmtime"), client.stdout().strip());
        assertTrue(json.get("ok").asBoolean(), client.describe());
        assertEquals(rounds, json.get("rounds").size(), client.describe());
        jsonTables(client.stdout()).forEach(table -> assertEquals(STEPS, List.copyOf(table.keySet()), client.describe()));
        for (final JsonNode round : json.get("rounds"))
        {
            for (final JsonNode step : round.get("steps"))
            {
                assertEquals(connections, step.get("connections_us").size(), step.toString());
                step.get("connections_us").forEach(us -> assertTrue(us.isIntegralNumber(), step.toString()));
            }
        }
        assertEquals(List.of(), client.stderr().lines().filter(line -> line.startsWith("failure")).toList(), client.describe());
    }

    /** {@code command} in the background as its own process (exec'd, so the PID file names it), output in /run/NAME.{out,err}. */
    static String started(final String command, final String name)
    {
        return "setsid sh -c 'exec " + command + "' < /dev/null > /run/" + name + ".out 2> /run/" + name + ".err &\n"
            + "echo $! > /run/" + name + ".pid";
    }

    /** Stops what {@link #started} started, by its PID, after printing its output; fails if it had already died. */
    static String stopped(final String name)
    {
        return "pid=$(cat /run/" + name + ".pid)\ncat /run/" + name + ".out; cat /run/" + name + ".err >&2\n"
            + "kill -0 $pid || { echo '" + name + " had stopped' >&2; exit 1; }\nkill $pid\n"
            + "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i+1)); done\n"
            + "kill -0 $pid 2>/dev/null && { kill -9 $pid; exit 2; }; exit 0";
    }
}

package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.sa.testing.SimulatedFabric;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm demo} as the README's main job runs it: setup, ibsim + OpenSM, the walks, the cleanup. */
class DemoCommandTest
{
    @Test
    void shouldWalkEveryResolutionOnTheSimulatedFabricAndStopWhatItStarted()
    {
        SimulatedFabric.requirePeers();
        final CommandRun run = CommandRun.run("demo");

        final String text = run.out();
        assertEquals(0, run.exit(), text + run.err());
        assertTrue(text.contains("every package the demo needs is installed"), text);
        assertTrue(text.contains("  ai_family AF_INET ai_qp_type IBV_QPT_RC ai_port_space 0x0106 ai_dst_addr 10.0.0.5:7471 ai_route 0 bytes"), text);
        assertTrue(text.contains("PathRecord Get comp_mask 0x780f {sgid=fe80::10:4 dgid=fe80::10:7 pkey=0xffff " +
            "service_id=0x0000000001061d2f qos_class=0 numb_path=1 reversible=true}"), text);
        assertTrue(text.contains("ROUTE_RESOLVED ibv_path_data flags 0x2b: dlid 5 slid 4 "), text);
        assertTrue(text.contains("ROUTE_RESOLVED ibv_path_data flags 0x2b: dlid 6 slid 4 "), text);
        assertTrue(text.contains("ROUTE_RESOLVED ibv_path_data flags 0x2b: dlid 1 slid 4 "), text);
        assertTrue(text.contains("ADDR_ERROR status -110 (ETIMEDOUT)"), text);
        assertTrue(text.contains("demo complete"), text);

        final Matcher stopped = Pattern.compile("stopped OpenSM \\(pid (\\d+)\\) and ibsim \\(pid (\\d+)\\)").matcher(text);
        assertTrue(stopped.find(), text);
        assertFalse(ProcessHandle.of(Long.parseLong(stopped.group(1))).map(ProcessHandle::isAlive).orElse(false),
            "OpenSM still runs");
        assertFalse(ProcessHandle.of(Long.parseLong(stopped.group(2))).map(ProcessHandle::isAlive).orElse(false),
            "ibsim still runs");
        final Matcher hosts = Pattern.compile("wrote (\\S+)/ibacm_hosts.data").matcher(text);
        assertTrue(hosts.find(), text);
        assertFalse(Files.exists(Path.of(hosts.group(1))), "the demo's directory is removed");
    }

    @Test
    void shouldReportEveryWalkAsJson() throws Exception
    {
        SimulatedFabric.requirePeers();

        final CommandRun run = CommandRun.run("demo", "--no-setup", "--json");

        assertEquals(0, run.exit(), run.out() + run.err());
        final JsonNode report = new ObjectMapper().readTree(run.out());
        assertTrue(report.get("ok").asBoolean());
        assertEquals(4, report.get("hosts").size());
        final JsonNode walks = report.get("walks");
        assertEquals(4, walks.size());
        final JsonNode hca3 = walks.get(1);
        assertEquals("10.0.0.5", hca3.get("destination").asText());
        assertEquals("ROUTE_RESOLVED", hca3.get("events").get(1).get("event").asText());
        assertEquals(0x2b, hca3.get("route").get(0).get("flags").asInt());
        assertEquals(5, hca3.get("route").get(0).get("dlid").asInt());
        assertEquals("10.0.0.1:7471", walks.get(0).get("getaddrinfo").get("ai_dst_addr").asText());
        final JsonNode unknown = walks.get(3);
        assertEquals("ADDR_ERROR", unknown.get("events").get(0).get("event").asText());
        assertEquals(-110, unknown.get("events").get(0).get("status").asInt());
    }

    @Test
    void shouldPrintTheDemoAsItsDocumentedObject()
    {
        SimulatedFabric.requirePeers();

        final CommandRun run = CommandRun.run("demo", "--no-setup", "--json");

        assertEquals(0, run.exit(), run.out() + run.err());
        final JsonVocabulary vocabulary = JsonVocabulary.ofThisCheckout();
        vocabulary.check(vocabulary.resultOf("demo"), run.out());
    }
}

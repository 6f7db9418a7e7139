package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code rdmacm resolve-route} on RoCE, in-process inside the namespace fixture with {@code SYSFS_PATH}
 * at the recorded soft-RoCE tree: the application's view of the path ({@code path_rec}) with the
 * fields the kernel-CM comparison checks, and {@code --kernel-profile}.
 */
class ResolveRouteOnRoceCommandTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GATEWAY = "192.0.2.2";

    @RegisterExtension
    static final SoftRoceNamespace NAMESPACE = new SoftRoceNamespace();

    private static JsonNode route(final String... args) throws Exception
    {
        final List<String> all = new ArrayList<>(List.of(GATEWAY, "--port", "7471", "--json", "--netns", NAMESPACE.topology().host));
        all.addAll(List.of(args));
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new ResolveRouteCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString())));
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        assertEquals(Main.EXIT_OK, commandLine.execute(all.toArray(String[]::new)), err.toString());
        return JSON.readTree(out.toString());
    }

    @Test
    void shouldPrintThePathAsLibrdmacmHandsItToTheApplication() throws Exception
    {
        final JsonNode route = route();
        final JsonNode path = route.get("path_rec").get(0);
        final String[] mac = ((String)NAMESPACE.topology().ipJson(NAMESPACE.topology().gateway, "link", "show", "dev", "b0").getFirst()
            .get("address")).split(":");

        final int hash = (route.get("src_port").asInt() * 31 + 7471) & 0xfffff;
        assertEquals(hash | (Integer.parseInt(mac[3], 16) & 1) << 23, path.get("flow_label").asInt(),
            "ucma_convert_path: the RawTraffic bit (dmac[3] & 1) lands in bit 23");
        assertEquals(0x0100 | Integer.parseInt(mac[0], 16), path.get("dlid").asInt());
        assertEquals(Integer.parseInt(mac[1] + mac[2], 16), path.get("slid").asInt());
        assertFalse(path.get("raw_traffic").asBoolean(), path.toString());
        assertEquals(1, path.get("numb_path").asInt());
        assertEquals(43, path.get("preference").asInt());
        assertEquals(18, path.get("packet_life_time").asInt(), "CMA_IBOE_PACKET_LIFETIME of linux-6.1");
        assertEquals(7471, route.get("dst_port").asInt());
    }

    @Test
    void shouldUseMainlinesPacketLifetimeUnderThatProfile() throws Exception
    {
        assertEquals(16, route("--kernel-profile", "mainline").get("path_rec").get(0).get("packet_life_time").asInt());
    }
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.acm.SaPathQuerier;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real librdmacm {@code rdma_getaddrinfo} (fakedev shim, private /run) asks our acm-server, whose
 * route miss goes to OpenSM's SA on ibsim: the {@code ai_route} bytes are the path saquery gets.
 */
class LibrdmacmAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @TempDir
    static Path dir;

    private static SaClient client;
    private static AcmServer server;

    @AfterAll
    static void stop()
    {
        if (server != null)
        {
            server.close();
        }
        if (client != null)
        {
            client.close();
        }
    }

    /** saquery's record as the 64 wire bytes of an ibv_path_record. */
    private static String pathBytes(final Map<String, String> fields)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[IbvPathRecord.LENGTH]);
        final long hopFlow = Long.decode(fields.get("hop_flow_raw"));
        new IbvPathRecord().wrap(bytes, 0).serviceId(Long.parseUnsignedLong(fields.get("service_id").substring(2), 16))
            .dgid(Gid.parse(fields.get("dgid"))).sgid(Gid.parse(fields.get("sgid")))
            .dlid(Integer.decode(fields.get("dlid"))).slid(Integer.decode(fields.get("slid")))
            .flowLabel((int)((hopFlow >>> 8) & 0xfffff)).hopLimit((int)(hopFlow & 0xff))
            .tClass(Integer.decode(fields.get("tclass"))).pKey(Integer.decode(fields.get("pkey")))
            .qosClass(Integer.decode(fields.get("qos_class"))).sl(Integer.decode(fields.get("sl")))
            .preference(Integer.decode(fields.get("preference")));
        bytes.putByte(IbvPathRecord.REVERSIBLE_NUMB_PATH_OFFSET, (byte)(int)Integer.decode(fields.get("num_path_revers")));
        bytes.putByte(IbvPathRecord.MTU_OFFSET, (byte)(int)Integer.decode(fields.get("mtu")));
        bytes.putByte(IbvPathRecord.RATE_OFFSET, (byte)(int)Integer.decode(fields.get("rate")));
        bytes.putByte(IbvPathRecord.PACKET_LIFE_TIME_OFFSET, (byte)(int)Integer.decode(fields.get("pkt_life")));
        return BitUtil.toHex(bytes.byteArray());
    }

    @Test
    void shouldGetTheRouteSaqueryGets() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final FabricPort local = fabric.port("Hca2");
        final FabricPort remote = fabric.port("Hca4");
        Files.writeString(dir.resolve("ibacm_addr.cfg"), "192.0.2.12 ibsim0 1 0xffff " + local.gid() + " " + local.lid() + "\n");
        Files.writeString(dir.resolve("ibacm_hosts.data"), "192.0.2.14 " + remote.gid() + "\n");
        final AcmOptions options = new AcmOptions();
        options.apply("run_dir " + dir.resolve("run"), "test");
        options.apply("server_mode loop", "test");
        options.apply("server_port 0", "test");
        options.apply("addr_preload acm_hosts", "test");
        options.apply("addr_data_file " + dir.resolve("ibacm_hosts.data"), "test");
        client = SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), "Hca2", Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
        server = AcmServer.start(options, AcmEndpointFile.read(dir.resolve("ibacm_addr.cfg")), AcmGidLookup.NONE,
            new SaPathQuerier(index -> client, Duration.ofSeconds(3)),
            new AcmLog(new PrintStream(OutputStream.nullOutputStream()), 0));

        final List<String> lines = RealLibrdmacm.run(List.of(new HarnessCase("192.0.2.14", "7471",
            RdmaAddrInfoHints.NONE.withSrcAddr(new Ipv4Sockaddr(0xC000_020C, 0)))), dir.resolve("harness"),
            RealLibrdmacm.Acm.at(server.tcpPort()));

        final List<Map<String, String>> expected = fabric.saquery("Hca2", "-p", "--sgid", local.gid().toString(),
            "--dgid", remote.gid().toString()).records();
        assertEquals(1, expected.size());
        final String route = "72:2b000000" + "00000000" + pathBytes(expected.get(0));
        assertTrue(lines.get(0).contains(" route=" + route + " "), lines.get(0) + "\nexpected route=" + route);
    }
}

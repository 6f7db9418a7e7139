package dev.rdmacm.acm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, defect 9, under acm-server, on the host: once an RDMA device is removed
 * ({@link AcmServer#deviceRemoved}, which the CM's device watch calls; the real removal is
 * {@code AcmServerDeviceRemovalInGuest}'s), the real {@code ib_acme} gets ESRCADDR from the device's
 * addresses and GIDs, as from any address no endpoint has, EP_QUERY no longer lists them, and the
 * other device's endpoint answers as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcmDeviceRemovalTest
{
    /** The fixture's mlx5_0 endpoints, and one of a second device whose path to node-b the dump holds too. */
    private static final String OTHER_ENDPOINT = "192.0.2.30  mlx5_1 1    0xffff fe80::2:c903:0:21   7\n";
    private static final String OTHER_PATHS = """

        Channel Adapter 0x0002c90300000021, base LID 7, "node-c HCA-1", port 1
        # LID  : SL : MTU : RATE
        0x0005 : 0  : 4   : 7  \s
        """;
    private static final String NO_SOURCE = "ib_acm_resolve_ip failed: Cannot assign requested address";

    private AcmServerFixture fixture;
    private String socket;

    @BeforeEach
    void startServerOnTwoDevices() throws Exception
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-removal");
        Files.writeString(dir.resolve("addr.cfg"), AcmServerFixture.ENDPOINTS + OTHER_ENDPOINT);
        Files.writeString(dir.resolve("paths.dump"), AcmServerFixture.PATH_DUMP + OTHER_PATHS);
        fixture = AcmServerFixture.start("addr_file " + dir.resolve("addr.cfg") + "\nroute_data_file " + dir.resolve("paths.dump")
            + "\n", AcmPathQuerier.NONE);
        socket = fixture.unixSocket().toString();
        AcmServerFixture.deleteTree(dir);
    }

    @AfterEach
    void stopServer()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    @Test
    void shouldAnswerEsrcaddrForTheRemovedDevicesAddressesAndServeTheOtherDevice() throws Exception
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3"), "slid: 1");
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.30", "-d", "192.0.2.3"), "slid: 7");
        assertEquals(3, fixture.server.service().endpoints().size());

        removeAndAwait("mlx5_0");

        final IbAcme.Result byAddress = IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3");
        assertTrue(byAddress.output().contains(NO_SOURCE), byAddress.output());
        final IbAcme.Result byGid = IbAcme.run("-S", socket, "-f", "g", "-s", "fe80::2:c903:0:1", "-d", "fe80::2:c903:0:2");
        assertTrue(byGid.output().contains("Cannot assign requested address"), byGid.output());
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.30", "-d", "192.0.2.3"), "slid: 7");
        assertTrue(fixture.log().contains("device mlx5_0 removed: 2 endpoint(s) dropped, 1 left"), fixture.log());
    }

    @Test
    void shouldStillAnswerPerfQueryWhenEveryEndpointIsGone() throws Exception
    {
        removeAndAwait("mlx5_0");
        removeAndAwait("mlx5_1");

        final IbAcme.Result counters = IbAcme.run("-S", socket, "-P");
        assertEquals(0, counters.exitCode(), counters.output());
        assertTrue(counters.output().contains("return status 0x0"), counters.output());
        final IbAcme.Result refused = IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.30", "-d", "192.0.2.3");
        assertTrue(refused.output().contains(NO_SOURCE), refused.output());
    }

    @Test
    void shouldListOnlyTheOtherDevicesEndpointOnEpQuery() throws Exception
    {
        assertEquals(List.of("0x0002c90300000001", "0x0002c90300000011", "0x0002c90300000021"), listedGuids());

        removeAndAwait("mlx5_0");

        assertEquals(List.of("0x0002c90300000021"), listedGuids());
    }

    /** The GUID column of each endpoint {@code ib_acme -e} lists (its CSV rows: svc,guid,port,pkey,...). */
    private List<String> listedGuids()
    {
        final IbAcme.Result listed = IbAcme.run("-S", socket, "-e");
        assertTrue(listed.output().contains("return status 0x0"), listed.output());
        return listed.output().lines().filter(line -> line.startsWith(socket + ",")).map(line -> line.split(",")[1]).toList();
    }

    @Test
    void shouldChangeNothingWhenADeviceWithoutEndpointsGoes() throws Exception
    {
        fixture.server.deviceRemoved("rxe9");
        removeAndAwait("mlx5_1");
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3"), "slid: 1");
        assertFalse(fixture.log().contains("device rxe9"), fixture.log());
    }

    /** The removal, and its effect seen (it runs on the server thread, in order with the one before). */
    private void removeAndAwait(final String device) throws InterruptedException
    {
        final int before = fixture.server.service().endpoints().size();
        fixture.server.deviceRemoved(device);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (fixture.server.service().endpoints().size() == before)
        {
            assertTrue(System.nanoTime() < deadline, "the endpoints of " + device + " still there");
            Thread.sleep(1);
        }
        assertTrue(fixture.server.service().endpoints().stream().noneMatch(endpoint -> endpoint.deviceName().equals(device)),
            fixture.server.service().endpoints().toString());
    }

    private static void assertResolved(final IbAcme.Result result, final String slid)
    {
        assertTrue(result.output().contains("return status 0x0"), result.output());
        assertTrue(result.output().contains(slid) && result.output().contains("dlid: 5"), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }
}

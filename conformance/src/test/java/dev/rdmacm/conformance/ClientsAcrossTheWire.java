package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.conformance.RpingAcrossTheWire.background;
import static dev.rdmacm.conformance.RpingAcrossTheWire.collect;
import static dev.rdmacm.conformance.RpingAcrossTheWire.javaCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * librdmacm 44's own clients in the kernel guest against our listeners in the userspace guest, one JVM
 * there serving both ({@link ServesRdmaClientAndCmatose}): {@code rdma_client} (rdma_getaddrinfo and
 * rdma_create_ep to its default port 7471, a 16-byte message each way, rdma_connect and rdma_accept
 * with NULL parameters) against a listener on our address, then {@code ucmatose -c 2} (two connections
 * at once, 10 messages of 100 bytes each way on each) against a listener on the IPv4 wildcard, which
 * listens on every RDMA port of the guest. The clients' exit status and their usual output are their
 * verdict on our REP, RTU, DREQ and DREP and on our QPs' sends and receives.
 */
final class ClientsAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    private static final Duration SERVED = Duration.ofSeconds(90);
    /** rdma_client's and rdma_server's default port, left to the client's default. */
    private static final int RDMA_SERVER_PORT = 7471;
    private static final int CMATOSE_PORT = 7472;
    private static final int CMATOSE_CONNECTIONS = 2;

    private ClientsAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final List<DynamicTest> tests = new ArrayList<>();

        final GuestResult servers = ours.run(RpingAcrossTheWire.LISTENER_START, background(javaCommand(ours, "servers", ServesRdmaClientAndCmatose.class.getName(),
            ourAddress, Integer.toString(RDMA_SERVER_PORT), Integer.toString(CMATOSE_PORT), Integer.toString(CMATOSE_CONNECTIONS)),
            "servers") + "\n" + RpingAcrossTheWire.untilListeningIn("servers"));
        final GuestResult rdmaClient = servers.succeeded() ? kernel.run(JOB, "rdma_client -s " + ourAddress) : servers;
        final GuestResult cmatose = servers.succeeded()
            ? kernel.run(JOB, "ucmatose -s " + ourAddress + " -p " + CMATOSE_PORT + " -c " + CMATOSE_CONNECTIONS)
            : servers;
        final GuestResult served = ours.run(SERVED, collect("servers"));
        final GuestResult leftOver = ours.run(JOB, "rdma resource show qp | grep -c ' type RC '; rdma resource show mr | grep -c .; "
            + "rdma resource show cq | grep -c ' pid '; true");

        tests.add(dynamicTest("shouldServeLibrdmacmsRdmaClientAsRdmaServerDoes()", () ->
        {
            assertEquals(0, rdmaClient.exitStatus(), rdmaClient.describe() + "\n" + served.describe());
            assertEquals("rdma_client: start\nrdma_client: end 0\n", rdmaClient.stdout(), rdmaClient.describe());
            // rdma_connect(id, NULL) asks for the device's maxima, rxe's 128 (max_qp_init_rd_atom, max_qp_rd_atom)
            assertEquals(List.of("rdma_server: start", "rdma_server: request on " + GuestWire.USERSPACE_CM.rxe()
                + " initiator_depth 128 responder_resources 128", "rdma_server: end 0"), served.stdout().lines()
                .filter(line -> line.startsWith("rdma_server: ")).toList(), served.describe());
        }));
        tests.add(dynamicTest("shouldServeTwoConnectionsOfUcmatoseAtOnceOnAWildcardListener()", () ->
        {
            assertEquals(0, cmatose.exitStatus(), cmatose.describe() + "\n" + served.describe());
            assertEquals(List.of("cmatose: starting client", "cmatose: connecting", "receiving data transfers", "sending replies",
                "data transfers complete", "test complete", "return status 0"), cmatose.stdout().lines().toList(), cmatose.describe());
            assertEquals(0, served.exitStatus(), served.describe());
            assertEquals(List.of("cmatose: starting server", "initiating data transfers", "completing sends", "receiving data transfers",
                "data transfers complete", "cmatose: disconnecting", "disconnected", "test complete", "return status 0"),
                served.stdout().lines().filter(line -> !line.startsWith("rdma_server: ") && !line.startsWith("cmatose: request "))
                    .toList(), served.describe());
        }));
        tests.add(dynamicTest("shouldBindEachWildcardRequestToThePortItCameInOn()", () ->
        {
            final List<String> requests = served.stdout().lines().filter(line -> line.startsWith("cmatose: request ")).toList();
            assertEquals(CMATOSE_CONNECTIONS, requests.size(), served.describe());
            for (final String request : requests)
            {
                // the wire's device, port 1, the GID of our address; the peer the kernel guest's address
                assertEquals(true, request.matches("cmatose: request \\d on " + GuestWire.USERSPACE_CM.rxe()
                    + " port 1 gid index \\d+ \\S+ \\(RoCE v2, " + GuestWire.NETDEV
                    + "\\) from " + GuestWire.KERNEL_CM.address().replace(".", "\\.") + ":\\d+"), request);
            }
        }));
        tests.add(dynamicTest("shouldLeaveNoQpMrOrCqOfTheServersBehind()", () ->
            assertEquals("0\n0\n0\n", leftOver.stdout(), leftOver.describe())));
        return tests;
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.AcmSocketClient;

import java.nio.file.Path;
import java.time.Duration;

/**
 * librdmacm 44's ACM-first route: {@code rdma_resolve_route} on a device whose transport is
 * InfiniBand (every device here, Soft-RoCE included: {@code IBV_TRANSPORT_IB}) first calls
 * {@code ucma_set_ib_route}, an {@code rdma_getaddrinfo} with {@code RAI_ROUTEONLY} and the id's
 * addresses, which asks an ibacm-compatible service for the path; a path that comes back is set with
 * {@code RDMA_OPTION_IB_PATH} and the kernel is not asked. No service, no path, or a path the option
 * refuses, and the kernel resolves the route as without ACM.
 *
 * @param enabled      whether resolveRoute asks ACM first (librdmacm always does).
 * @param portFile     read first: a port number in it means the service listens on 127.0.0.1 there.
 * @param socket       the service's unix socket otherwise.
 * @param replyTimeout how long one ACM reply (or a TCP connect under way) may take, on the RdmaCm's clock;
 *                     librdmacm waits forever. When it passes the connection is given up.
 */
public record AcmFirstRoute(boolean enabled, Path portFile, Path socket, Duration replyTimeout)
{
    /** As librdmacm 44 (Debian): on, {@code /run/ibacm.port} then {@code /run/ibacm.sock}, 5 s per reply. */
    public static final AcmFirstRoute LIBRDMACM = new AcmFirstRoute(true, AcmSocketClient.LIBRDMACM_PORT_FILE,
        AcmSocketClient.LIBRDMACM_SOCKET, AcmSocketClient.DEFAULT_REPLY_TIMEOUT);
    /** Never ask ACM: every route comes from the SA or the RoCE synthesis. */
    public static final AcmFirstRoute OFF = new AcmFirstRoute(false, AcmSocketClient.LIBRDMACM_PORT_FILE,
        AcmSocketClient.LIBRDMACM_SOCKET, AcmSocketClient.DEFAULT_REPLY_TIMEOUT);

    /**
     * Checks that the file, the socket and a positive timeout are given.
     *
     * @throws IllegalArgumentException for a missing file, socket or timeout, or a timeout not positive.
     */
    public AcmFirstRoute
    {
        if (portFile == null || socket == null || replyTimeout == null)
        {
            throw new IllegalArgumentException("ACM-first route: port file, socket and reply timeout are required");
        }
        if (replyTimeout.isNegative() || replyTimeout.isZero())
        {
            throw new IllegalArgumentException("ACM-first route: reply timeout " + replyTimeout + " must be positive");
        }
    }

    /**
     * The service on {@code socket}, with no port file to prefer (a path that does not exist).
     *
     * @param socket the service's unix socket.
     * @return the route's options.
     */
    public static AcmFirstRoute at(final Path socket)
    {
        return new AcmFirstRoute(true, socket.resolveSibling(socket.getFileName() + ".no-port-file"), socket,
            AcmSocketClient.DEFAULT_REPLY_TIMEOUT);
    }

    AcmSocketClient newClient()
    {
        return new AcmSocketClient(portFile, socket, replyTimeout);
    }
}

package dev.rdmacm.cm;

import java.util.EnumSet;

import static dev.rdmacm.cm.CmIdState.ADDR_BOUND;
import static dev.rdmacm.cm.CmIdState.ADDR_QUERY;
import static dev.rdmacm.cm.CmIdState.ADDR_RESOLVED;
import static dev.rdmacm.cm.CmIdState.CONNECT;
import static dev.rdmacm.cm.CmIdState.DESTROYING;
import static dev.rdmacm.cm.CmIdState.DEVICE_REMOVAL;
import static dev.rdmacm.cm.CmIdState.DISCONNECT;
import static dev.rdmacm.cm.CmIdState.ESTABLISHED;
import static dev.rdmacm.cm.CmIdState.IDLE;
import static dev.rdmacm.cm.CmIdState.LISTEN;
import static dev.rdmacm.cm.CmIdState.ROUTE_QUERY;
import static dev.rdmacm.cm.CmIdState.ROUTE_RESOLVED;

/**
 * The id's state diagram: {@code enum rdma_cm_state}'s moves as this CM makes them.
 * <pre>
 *   from             to                               by
 *   IDLE             ADDR_BOUND                       bind, resolve_addr's auto-bind, listen's bind
 *   IDLE             CONNECT                          a connection request's new id
 *   ADDR_BOUND       ADDR_QUERY                       resolve_addr
 *   ADDR_BOUND       LISTEN                           listen
 *   ADDR_QUERY       ADDR_RESOLVED                    ADDR_RESOLVED
 *   ADDR_QUERY       ADDR_BOUND | IDLE                ADDR_ERROR, or the call failed (IDLE: its auto-bind undone)
 *   ADDR_RESOLVED    ROUTE_QUERY                      resolve_route
 *   ADDR_RESOLVED    ROUTE_RESOLVED                   RDMA_OPTION_IB_PATH, the ACM-first route
 *   ROUTE_QUERY      ROUTE_RESOLVED | ADDR_RESOLVED   ROUTE_RESOLVED; ROUTE_ERROR or the call failed
 *   ROUTE_RESOLVED   CONNECT                          connect
 *   CONNECT, ESTABLISHED, DISCONNECT, DEVICE_REMOVAL
 *                    ESTABLISHED | DISCONNECT         the connection's events, as they arrive, and disconnect
 *   any bound state  DEVICE_REMOVAL                   the device went away
 *   any but DESTROYING  DESTROYING                    destroy
 * </pre>
 */
final class CmIdTransitions
{
    /** States in which the id is on a device (or a wildcard): a device removal reaches it. */
    static final EnumSet<CmIdState> BOUND = EnumSet.of(ADDR_BOUND, ADDR_QUERY, ADDR_RESOLVED, ROUTE_QUERY, ROUTE_RESOLVED,
        CONNECT, LISTEN, ESTABLISHED, DISCONNECT);

    /** States a connection's events arrive in. */
    static final EnumSet<CmIdState> CONNECTED = EnumSet.of(CONNECT, ESTABLISHED, DISCONNECT, DEVICE_REMOVAL);

    static final TransitionTable<CmIdState> TABLE = TransitionTable.of("RdmaCmId", CmIdState.class)
        .allow(IDLE, ADDR_BOUND, CONNECT)
        .allow(ADDR_BOUND, ADDR_QUERY, LISTEN)
        .allow(ADDR_QUERY, ADDR_RESOLVED, ADDR_BOUND, IDLE)
        .allow(ADDR_RESOLVED, ROUTE_QUERY, ROUTE_RESOLVED)
        .allow(ROUTE_QUERY, ROUTE_RESOLVED, ADDR_RESOLVED)
        .allow(ROUTE_RESOLVED, CONNECT)
        .allow(CONNECT, ESTABLISHED, DISCONNECT)
        .allow(ESTABLISHED, DISCONNECT)
        .allow(DISCONNECT, ESTABLISHED)
        .allow(DEVICE_REMOVAL, ESTABLISHED, DISCONNECT)
        .allowFrom(BOUND, DEVICE_REMOVAL)
        .allowFrom(EnumSet.complementOf(EnumSet.of(DESTROYING)), DESTROYING)
        .build();

    private CmIdTransitions()
    {
    }
}

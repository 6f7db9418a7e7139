package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;

/**
 * One event of an {@link RdmaCmId}, as {@code rdma_get_cm_event} returns it: one record per
 * {@code enum rdma_cm_event_type}, so that a caller switches over what happened and gets exactly the
 * parts that kind of event has, never a null for a part it lacks:
 * <pre>{@code
 * switch (channel.getEvent())
 * {
 *     case CmEvent.AddrResolved resolved -> use(resolved.resolution());
 *     case CmEvent.AddrError error -> retry(error.status(), error.detail());
 *     case CmEvent other -> ignore(other);
 * }
 * }</pre>
 * Every event has its {@link #id()}, its {@link #type()} and librdmacm's {@link #status()}: 0 for
 * success, the negative errno of a failure (e.g. -110, ETIMEDOUT), and for {@link Rejected} the IB CM
 * reject reason. Address and route resolution produce the first four kinds; the others are the kinds
 * the CM connection engine will produce, with the parts every such event has (their private data and
 * connection parameters come with that engine).
 */
public sealed interface CmEvent
{
    /** The id the event concerns. */
    RdmaCmId id();

    /** The {@code enum rdma_cm_event_type} value this record stands for. */
    CmEventType type();

    /** 0, a negative errno, or (REJECTED) the reject reason, as {@code rdma_cm_event.status}. */
    int status();

    /** {@code rdma_ack_cm_event}: releases the event (destroying the id waits for nothing here). */
    default void ack()
    {
        id().acknowledge(this);
    }

    /** An event of address or route resolution: it has the steps that produced it. */
    sealed interface ResolutionEvent extends CmEvent
    {
        /** The steps of the resolution that produced this event. */
        ResolutionTrace trace();
    }

    /** ADDR_RESOLVED: the id is bound to an RDMA port and knows both GIDs. */
    record AddrResolved(RdmaCmId id, AddressResolution resolution, ResolutionTrace trace) implements ResolutionEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.ADDR_RESOLVED;
        }

        @Override
        public int status()
        {
            return 0;
        }

        @Override
        public String toString()
        {
            return describe(this, null);
        }
    }

    /** ADDR_ERROR: the resolution failed after the call had returned; the id is back in ADDR_BOUND. */
    record AddrError(RdmaCmId id, int status, String detail, ResolutionTrace trace) implements ResolutionEvent
    {
        public AddrError
        {
            requireError(status);
        }

        @Override
        public CmEventType type()
        {
            return CmEventType.ADDR_ERROR;
        }

        /** The positive errno, e.g. {@link Errno#ETIMEDOUT}. */
        public int errno()
        {
            return -status;
        }

        @Override
        public String toString()
        {
            return describe(this, detail);
        }
    }

    /** ROUTE_RESOLVED: the id has its path(s). */
    record RouteResolved(RdmaCmId id, AddressResolution resolution, ResolvedRoute route, ResolutionTrace trace)
        implements ResolutionEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.ROUTE_RESOLVED;
        }

        @Override
        public int status()
        {
            return 0;
        }

        @Override
        public String toString()
        {
            return describe(this, null);
        }
    }

    /**
     * ROUTE_ERROR: the route query failed (-EINVAL for an SA error status, -ETIMEDOUT when the SA never
     * answered); the id is back in ADDR_RESOLVED with the resolution it had.
     */
    record RouteError(RdmaCmId id, int status, AddressResolution resolution, String detail, ResolutionTrace trace)
        implements ResolutionEvent
    {
        public RouteError
        {
            requireError(status);
        }

        @Override
        public CmEventType type()
        {
            return CmEventType.ROUTE_ERROR;
        }

        /** The positive errno, e.g. {@link Errno#ETIMEDOUT}. */
        public int errno()
        {
            return -status;
        }

        @Override
        public String toString()
        {
            return describe(this, detail);
        }
    }

    /** CONNECT_REQUEST: a new id for a peer's request arrived on {@code listenId}. */
    record ConnectRequest(RdmaCmId id, RdmaCmId listenId) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.CONNECT_REQUEST;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** CONNECT_RESPONSE: the peer replied to an id without a QP, which must accept or reject. */
    record ConnectResponse(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.CONNECT_RESPONSE;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** CONNECT_ERROR: the connection could not be established (status a negative errno). */
    record ConnectError(RdmaCmId id, int status) implements CmEvent
    {
        public ConnectError
        {
            requireError(status);
        }

        @Override
        public CmEventType type()
        {
            return CmEventType.CONNECT_ERROR;
        }
    }

    /** UNREACHABLE: the peer did not answer (status a negative errno, e.g. -ETIMEDOUT). */
    record Unreachable(RdmaCmId id, int status) implements CmEvent
    {
        public Unreachable
        {
            requireError(status);
        }

        @Override
        public CmEventType type()
        {
            return CmEventType.UNREACHABLE;
        }
    }

    /** REJECTED: the peer rejected; {@code status} is the IB CM reject reason (positive, e.g. 28 consumer). */
    record Rejected(RdmaCmId id, int status) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.REJECTED;
        }
    }

    /** ESTABLISHED: the connection is up. */
    record Established(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.ESTABLISHED;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** DISCONNECTED: the connection is down. */
    record Disconnected(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.DISCONNECTED;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** DEVICE_REMOVAL: the RDMA device of the id went away. */
    record DeviceRemoval(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.DEVICE_REMOVAL;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** MULTICAST_JOIN: the id joined its multicast group. */
    record MulticastJoin(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.MULTICAST_JOIN;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** MULTICAST_ERROR: joining, or staying in, the group failed (status a negative errno). */
    record MulticastError(RdmaCmId id, int status) implements CmEvent
    {
        public MulticastError
        {
            requireError(status);
        }

        @Override
        public CmEventType type()
        {
            return CmEventType.MULTICAST_ERROR;
        }
    }

    /** ADDR_CHANGE: the netdev the id's address is on changed (bonding failover). */
    record AddrChange(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.ADDR_CHANGE;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** TIMEWAIT_EXIT: the QP of a disconnected id left timewait and may be reused. */
    record TimewaitExit(RdmaCmId id) implements CmEvent
    {
        @Override
        public CmEventType type()
        {
            return CmEventType.TIMEWAIT_EXIT;
        }

        @Override
        public int status()
        {
            return 0;
        }
    }

    /** An error event's status is a negative errno, as librdmacm reports it. */
    private static void requireError(final int status)
    {
        if (status >= 0)
        {
            throw new IllegalArgumentException("an error event's status is a negative errno, not " + status);
        }
    }

    /** {@code ADDR_ERROR status -110 (ETIMEDOUT): detail}, as the single record printed it. */
    private static String describe(final CmEvent event, final String detail)
    {
        final int status = event.status();
        return event.type() + (status == 0 ? "" : " status " + status + " (" + Errno.name(-status) + ")") +
            (detail == null ? "" : ": " + detail);
    }
}

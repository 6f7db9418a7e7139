package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.ResolvedRoute;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

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
 * reject reason. Address and route resolution produce the first four kinds, the kernel's notifications
 * {@link DeviceRemoval} (a device went away) and {@link AddrChange} (a bonding failover); the others
 * are the kinds the CM connection engine will produce, with the parts every such event has (their private data and
 * connection parameters come with that engine). Every event is immutable: private data is copied on the way in
 * and out, and compared by content.
 */
public sealed interface CmEvent
{
    /** {@return the id the event concerns} */
    RdmaCmId id();

    /** {@return the {@code enum rdma_cm_event_type} value this record stands for} */
    default CmEventType type()
    {
        return switch (this)
        {
            case AddrResolved e -> CmEventType.ADDR_RESOLVED;
            case AddrError e -> CmEventType.ADDR_ERROR;
            case RouteResolved e -> CmEventType.ROUTE_RESOLVED;
            case RouteError e -> CmEventType.ROUTE_ERROR;
            case ConnectRequest e -> CmEventType.CONNECT_REQUEST;
            case ConnectResponse e -> CmEventType.CONNECT_RESPONSE;
            case ConnectError e -> CmEventType.CONNECT_ERROR;
            case Unreachable e -> CmEventType.UNREACHABLE;
            case Rejected e -> CmEventType.REJECTED;
            case Established e -> CmEventType.ESTABLISHED;
            case Disconnected e -> CmEventType.DISCONNECTED;
            case DeviceRemoval e -> CmEventType.DEVICE_REMOVAL;
            case MulticastJoin e -> CmEventType.MULTICAST_JOIN;
            case MulticastError e -> CmEventType.MULTICAST_ERROR;
            case AddrChange e -> CmEventType.ADDR_CHANGE;
            case TimewaitExit e -> CmEventType.TIMEWAIT_EXIT;
            case AddrinfoResolved e -> CmEventType.ADDRINFO_RESOLVED;
            case AddrinfoError e -> CmEventType.ADDRINFO_ERROR;
            case User e -> CmEventType.USER;
        };
    }

    /**
     * {@return 0, a negative errno, or (REJECTED) the reject reason, as {@code rdma_cm_event.status}}
     * The kinds that carry a status have it as a component, the others are always 0.
     */
    default int status()
    {
        return 0;
    }

    /** {@code rdma_ack_cm_event}: releases the event; destroying its id waits until it is acknowledged. */
    default void ack()
    {
        id().acknowledge(this);
    }

    /** An event of address or route resolution: it has the steps that produced it. */
    sealed interface ResolutionEvent extends CmEvent
    {
        /** {@return the steps of the resolution that produced this event} */
        ResolutionTrace trace();
    }

    /**
     * ADDR_RESOLVED: the id is bound to an RDMA port and knows both GIDs.
     *
     * @param id         the id the event concerns.
     * @param resolution the address resolution: the port, the GIDs, the netdev and the next hop.
     * @param trace      the steps that produced it.
     */
    record AddrResolved(RdmaCmId id, AddressResolution resolution, ResolutionTrace trace) implements ResolutionEvent
    {
        @Override
        public String toString()
        {
            return describe(this, null);
        }
    }

    /**
     * ADDR_ERROR: the resolution failed after the call had returned; the id is back in ADDR_BOUND.
     *
     * @param id     the id the event concerns.
     * @param status the negative errno, e.g. -110 (ETIMEDOUT).
     * @param detail what failed, in words.
     * @param trace  the steps that led to the failure.
     */
    record AddrError(RdmaCmId id, int status, String detail, ResolutionTrace trace) implements ResolutionEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for a status that is not a negative errno.
         */
        public AddrError
        {
            requireError(status);
        }

        /** {@return the positive errno, e.g. {@link Errno#ETIMEDOUT}} */
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

    /**
     * ROUTE_RESOLVED: the id has its path(s).
     *
     * @param id         the id the event concerns.
     * @param resolution the address resolution the route was asked for.
     * @param route      the path(s) and what they were made from.
     * @param trace      the steps that produced it.
     */
    record RouteResolved(RdmaCmId id, AddressResolution resolution, ResolvedRoute route, ResolutionTrace trace)
        implements ResolutionEvent
    {
        @Override
        public String toString()
        {
            return describe(this, null);
        }
    }

    /**
     * ROUTE_ERROR: the route query failed (-EINVAL for an SA error status, -ETIMEDOUT when the SA never
     * answered); the id is back in ADDR_RESOLVED with the resolution it had.
     *
     * @param id         the id the event concerns.
     * @param status     the negative errno.
     * @param resolution the address resolution the id keeps.
     * @param detail     what failed, in words.
     * @param trace      the steps that led to the failure.
     */
    record RouteError(RdmaCmId id, int status, AddressResolution resolution, String detail, ResolutionTrace trace)
        implements ResolutionEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for a status that is not a negative errno.
         */
        public RouteError
        {
            requireError(status);
        }

        /** {@return the positive errno, e.g. {@link Errno#ETIMEDOUT}} */
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

    /**
     * CONNECT_REQUEST: a new id for a peer's request arrived on {@code listenId}; {@code privateData} is
     * the REQ's private data after rdma_cm's IP CM header (56 bytes), as the kernel hands it on.
     * {@code parameters} is the event's {@code param.conn}: the request's values seen from this side, so
     * that accepting with them is what librdmacm's {@code rdma_accept(id, NULL)} asks for (its responder
     * resources are the REQ's initiator depth, its initiator depth the REQ's responder resources, then
     * flow control, retry and RNR retry counts, and the same private data).
     *
     * @param id          the new id, for the request.
     * @param listenId    the listening id the request arrived on.
     * @param privateData the REQ's private data after the IP CM header (copied).
     * @param parameters  the request's connection parameters, seen from this side.
     */
    record ConnectRequest(RdmaCmId id, RdmaCmId listenId, byte[] privateData, ConnectionParameters parameters) implements CmEvent
    {
        /** Copies the private data (none for null). */
        public ConnectRequest
        {
            privateData = privateData == null ? new byte[0] : privateData.clone();
            parameters = parameters == null ? new ConnectionParameters(privateData, 0, 0, false, 0, 0) : parameters;
        }

        /**
         * A request whose REQ values are not known: all zero, as a SIDR request's {@code param.conn} is.
         *
         * @param id          the new id, for the request.
         * @param listenId    the listening id the request arrived on.
         * @param privateData the request's private data (copied).
         */
        public ConnectRequest(final RdmaCmId id, final RdmaCmId listenId, final byte[] privateData)
        {
            this(id, listenId, privateData, null);
        }

        /** {@return a copy of the private data} */
        @Override
        public byte[] privateData()
        {
            return privateData.clone();
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof ConnectRequest e && Objects.equals(id, e.id) && Objects.equals(listenId, e.listenId) &&
                Arrays.equals(privateData, e.privateData) && parameters.equals(e.parameters);
        }

        @Override
        public int hashCode()
        {
            return 31 * Arrays.hashCode(privateData) + Objects.hash(id, listenId, parameters);
        }
    }

    /**
     * CONNECT_RESPONSE: the peer replied to an id without a QP, which must accept or reject.
     *
     * @param id the id the event concerns.
     */
    record ConnectResponse(RdmaCmId id) implements CmEvent
    {
    }

    /**
     * CONNECT_ERROR: the connection could not be established.
     *
     * @param id     the id the event concerns.
     * @param status the negative errno.
     */
    record ConnectError(RdmaCmId id, int status) implements CmEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for a status that is not a negative errno.
         */
        public ConnectError
        {
            requireError(status);
        }
    }

    /**
     * UNREACHABLE: the peer did not answer (status a negative errno, e.g. -ETIMEDOUT), or, on a UD id,
     * its SIDR_REP refused: then the status is the SIDR_REP's, positive (1 no listener, 2 rejected,
     * ...), as rdma_cm's {@code cma_sidr_rep_handler} reports it.
     *
     * @param id     the id the event concerns.
     * @param status a negative errno, or a SIDR_REP status.
     */
    record Unreachable(RdmaCmId id, int status) implements CmEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for status 0: UNREACHABLE is a failure.
         */
        public Unreachable
        {
            if (status == 0)
            {
                throw new IllegalArgumentException("UNREACHABLE's status is a negative errno or a SIDR_REP status, not 0");
            }
        }
    }

    /**
     * REJECTED: the peer rejected; {@code status} is the IB CM reject reason (positive, e.g. 8 no
     * listener, 28 consumer defined) and {@code privateData} the REJ's 148 bytes.
     *
     * @param id          the id the event concerns.
     * @param status      the IB CM reject reason.
     * @param privateData the REJ's private data (copied).
     */
    record Rejected(RdmaCmId id, int status, byte[] privateData) implements CmEvent
    {
        /** Copies the private data (none for null). */
        public Rejected
        {
            privateData = privateData == null ? new byte[0] : privateData.clone();
        }

        /** {@return a copy of the private data} */
        @Override
        public byte[] privateData()
        {
            return privateData.clone();
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Rejected e && Objects.equals(id, e.id) && status == e.status &&
                Arrays.equals(privateData, e.privateData);
        }

        @Override
        public int hashCode()
        {
            return 31 * Arrays.hashCode(privateData) + Objects.hash(id, status);
        }
    }

    /**
     * ESTABLISHED: the connection is up; on the active side {@code privateData} is the REP's (196 bytes).
     * On a UD id it ends a SIDR resolution instead, and {@code ud} is librdmacm's {@code param.ud}: the
     * remote QP, its Q_Key and the address handle attributes to reach it; {@code privateData} is then
     * the SIDR_REP's (136 bytes), as {@code ud}'s.
     *
     * @param id          the id the event concerns.
     * @param privateData the REP's or SIDR_REP's private data (copied).
     * @param ud          on a UD id, how to reach the remote QP; empty on an RC id.
     */
    record Established(RdmaCmId id, byte[] privateData, Optional<UdParameters> ud) implements CmEvent
    {
        /** Copies the private data (none for null). */
        public Established
        {
            privateData = privateData == null ? new byte[0] : privateData.clone();
            ud = ud == null ? Optional.empty() : ud;
        }

        /**
         * An RC connection's: no UD parameters.
         *
         * @param id          the id the event concerns.
         * @param privateData the REP's private data (copied).
         */
        public Established(final RdmaCmId id, final byte[] privateData)
        {
            this(id, privateData, Optional.empty());
        }

        /** {@return a copy of the private data} */
        @Override
        public byte[] privateData()
        {
            return privateData.clone();
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Established e && Objects.equals(id, e.id) && Arrays.equals(privateData, e.privateData) &&
                ud.equals(e.ud);
        }

        @Override
        public int hashCode()
        {
            return 31 * Arrays.hashCode(privateData) + Objects.hash(id, ud);
        }
    }

    /**
     * DISCONNECTED: the connection is down; {@code status} 0, or -110 (ETIMEDOUT) when this side's DREQ
     * had no DREP after every retry (rdma_cm's IB_CM_DREQ_ERROR).
     *
     * @param id     the id the event concerns.
     * @param status 0 or -110.
     */
    record Disconnected(RdmaCmId id, int status) implements CmEvent
    {
    }

    /**
     * DEVICE_REMOVAL: the RDMA device of the id went away.
     *
     * @param id the id the event concerns.
     */
    record DeviceRemoval(RdmaCmId id) implements CmEvent
    {
    }

    /**
     * MULTICAST_JOIN: the id joined {@code group} ({@link RdmaCmId#join}); {@code context} is what the join
     * was given (librdmacm's {@code param.ud.private_data}), {@code ud} how to send to the group: the address
     * handle attributes from the group's record (DLID the MLID, SL, rate, a GRH to the MGID from the id's
     * GID index with the group's hop limit, traffic class and flow label), QP number 0xFFFFFF and the id's
     * Q_Key.
     *
     * @param id      the id the event concerns.
     * @param group   the group's IP address, as joined.
     * @param context what the join was given.
     * @param ud      how to send to the group.
     */
    record MulticastJoin(RdmaCmId id, InetAddress group, Object context, UdParameters ud) implements CmEvent
    {
        @Override
        public String toString()
        {
            return describe(this, group.getHostAddress() + " " + ud);
        }
    }

    /**
     * MULTICAST_ERROR: joining, or staying in, {@code group} failed; status the kernel's negative errno
     * (-EINVAL for any SA refusal, -ETIMEDOUT for no answer, -ENETRESET after a port event), or -1 when
     * librdmacm's {@code ibv_attach_mcast} failed.
     *
     * @param id      the id the event concerns.
     * @param status  the negative errno, or -1.
     * @param group   the group's IP address, as joined.
     * @param context what the join was given.
     */
    record MulticastError(RdmaCmId id, int status, InetAddress group, Object context) implements CmEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for a status that is not a negative errno.
         */
        public MulticastError
        {
            requireError(status);
        }

        @Override
        public String toString()
        {
            return describe(this, group.getHostAddress());
        }
    }

    /**
     * ADDR_CHANGE: the netdev the id's address is on changed (bonding failover).
     *
     * @param id the id the event concerns.
     */
    record AddrChange(RdmaCmId id) implements CmEvent
    {
    }

    /**
     * TIMEWAIT_EXIT: the QP of a disconnected id left timewait and may be reused.
     *
     * @param id the id the event concerns.
     */
    record TimewaitExit(RdmaCmId id) implements CmEvent
    {
    }

    /**
     * ADDRINFO_RESOLVED (rdma-core HEAD): {@link RdmaCmId#resolveAddrinfo} succeeded and
     * {@link RdmaCmId#queryAddrinfo} hands over the entries, once.
     *
     * @param id the id the event concerns.
     */
    record AddrinfoResolved(RdmaCmId id) implements CmEvent
    {
    }

    /**
     * ADDRINFO_ERROR (rdma-core HEAD): the IB service resolution of {@code rdma_resolve_addrinfo} failed.
     * Unlike every other error event its status is librdmacm's positive {@code errno} ({@code cma.c}
     * sets {@code evt->event.status = errno}), e.g. 2 (ENOENT) for no ServiceRecord.
     *
     * @param id     the id the event concerns.
     * @param status the positive errno.
     */
    record AddrinfoError(RdmaCmId id, int status) implements CmEvent
    {
        /**
         * Checks the status.
         *
         * @throws IllegalArgumentException for a status that is not a positive errno.
         */
        public AddrinfoError
        {
            if (status <= 0)
            {
                throw new IllegalArgumentException("ADDRINFO_ERROR's status is a positive errno, not " + status);
            }
        }

        @Override
        public String toString()
        {
            return type() + " status " + status + " (" + Errno.name(status) + ")";
        }
    }

    /**
     * USER (rdma-core HEAD): an event the application wrote with {@link RdmaCmId#writeCmEvent}, with the
     * status and the 64-bit {@code param.arg} it gave, unchanged (any status, positive or not).
     *
     * @param id     the id the event concerns.
     * @param status the status the application gave.
     * @param arg    the 64-bit argument the application gave.
     */
    record User(RdmaCmId id, int status, long arg) implements CmEvent
    {
        @Override
        public String toString()
        {
            return type() + " status " + status + " arg 0x" + Long.toHexString(arg);
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

package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;

/**
 * One event of an {@link RdmaCmId}, as {@code rdma_get_cm_event} returns it.
 *
 * @param id         the id it concerns.
 * @param type       ADDR_RESOLVED or ADDR_ERROR for address resolution.
 * @param status     0, or the negative errno of an error event (e.g. -110 for ETIMEDOUT).
 * @param resolution the result of an ADDR_RESOLVED event, else null.
 * @param detail     for an error, what failed; else null.
 * @param trace      the steps of the resolution that produced this event.
 * @param route      the route of a ROUTE_RESOLVED event, else null.
 */
public record CmEvent(RdmaCmId id, CmEventType type, int status, AddressResolution resolution, String detail,
    ResolutionTrace trace, ResolvedRoute route)
{
    public CmEvent(final RdmaCmId id, final CmEventType type, final int status, final AddressResolution resolution,
        final String detail, final ResolutionTrace trace)
    {
        this(id, type, status, resolution, detail, trace, null);
    }

    /** {@code rdma_ack_cm_event}: releases the event (destroying the id waits for nothing here). */
    public void ack()
    {
        id.acknowledge(this);
    }

    @Override
    public String toString()
    {
        return type + (status == 0 ? "" : " status " + status + " (" + Errno.name(-status) + ")") +
            (detail == null ? "" : ": " + detail);
    }
}

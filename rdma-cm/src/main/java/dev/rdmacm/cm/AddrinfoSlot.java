package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.libc.Errno;

import java.util.List;

/**
 * One id's {@code rdma_resolve_addrinfo} state, as rdma-core HEAD's {@code cma.c} keeps it in two fields
 * of {@code cma_id_private} ({@code resolving_ai}, {@code resolved_ai}), named here as three phases:
 * <pre>
 *            resolve (else EBUSY)          the lookup succeeded
 *   IDLE ───────────────────────► RESOLVING ───────────────────► RESOLVED
 *    ▲  ▲                             │                              │
 *    │  └──── the lookup failed ──────┘                              │
 *    └──────────────── query hands the entries over ─────────────────┘
 * </pre>
 * EBUSY in both RESOLVING and RESOLVED: a second resolution is refused until the application has taken
 * the first one's result with query, even after the ADDRINFO_RESOLVED event was read. Query outside
 * RESOLVED is ENOENT. The id state ({@link CmIdState}) is not involved: librdmacm checks neither it nor
 * a bound address. Every change goes through {@link #moveTo}, which checks {@link #TRANSITIONS}. Owned by
 * the conductor, like the rest of the id ({@link IdContext}): the lookup runs on the caller's thread between
 * two commands ({@link IdCommand.AddrinfoBegin}, {@link IdCommand.AddrinfoEnd}), which is what the
 * {@code cma_id_private} mutex orders in librdmacm.
 */
final class AddrinfoSlot
{
    enum Phase
    {
        IDLE,
        RESOLVING,
        RESOLVED
    }

    /** The diagram above: RESOLVING ends either way, and only query ends RESOLVED. */
    static final TransitionTable<Phase> TRANSITIONS = TransitionTable.of("rdma_resolve_addrinfo", Phase.class)
        .allow(Phase.IDLE, Phase.RESOLVING)
        .allow(Phase.RESOLVING, Phase.RESOLVED, Phase.IDLE)
        .allow(Phase.RESOLVED, Phase.IDLE)
        .build();

    private Phase phase = Phase.IDLE;
    private List<RdmaAddrInfo> entries;

    Phase phase()
    {
        return phase;
    }

    /** {@code resolving_ai = true}, or EBUSY while a resolution is pending or not yet queried. */
    void begin() throws RdmaCmException
    {
        if (phase != Phase.IDLE)
        {
            throw new RdmaCmException("rdma_resolve_addrinfo", Errno.EBUSY, "a resolution is " +
                (phase == Phase.RESOLVING ? "in progress" : "resolved and not yet taken with rdma_query_addrinfo"), true);
        }
        moveTo(Phase.RESOLVING, null);
    }

    void resolved(final List<RdmaAddrInfo> result)
    {
        moveTo(Phase.RESOLVED, List.copyOf(result));
    }

    void failed()
    {
        moveTo(Phase.IDLE, null);
    }

    /** {@code rdma_query_addrinfo}: the entries, once; ENOENT unless a resolution succeeded and was not taken. */
    List<RdmaAddrInfo> take() throws RdmaCmException
    {
        if (phase != Phase.RESOLVED)
        {
            throw new RdmaCmException("rdma_query_addrinfo", Errno.ENOENT, phase == Phase.RESOLVING ?
                "the resolution is still in progress" : "no rdma_resolve_addrinfo result to take", true);
        }
        final List<RdmaAddrInfo> taken = entries;
        moveTo(Phase.IDLE, null);
        return taken;
    }

    private void moveTo(final Phase next, final List<RdmaAddrInfo> nextEntries)
    {
        TRANSITIONS.require(this, phase, next);
        phase = next;
        entries = nextEntries;
    }
}

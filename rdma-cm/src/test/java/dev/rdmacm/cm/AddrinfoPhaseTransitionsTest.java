package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code rdma_resolve_addrinfo}'s phases ({@link AddrinfoSlot#TRANSITIONS}) and the calls that move them. */
class AddrinfoPhaseTransitionsTest
{
    private static final TransitionTable<AddrinfoSlot.Phase> TABLE = AddrinfoSlot.TRANSITIONS;

    @Test
    void shouldEndResolvingEitherWay()
    {
        assertEquals(EnumSet.of(AddrinfoSlot.Phase.RESOLVED, AddrinfoSlot.Phase.IDLE), TABLE.successors(AddrinfoSlot.Phase.RESOLVING));
    }

    @Test
    void shouldLeaveResolvedOnlyThroughQuery()
    {
        assertEquals(EnumSet.of(AddrinfoSlot.Phase.IDLE), TABLE.successors(AddrinfoSlot.Phase.RESOLVED));
        assertFalse(TABLE.isLegal(AddrinfoSlot.Phase.IDLE, AddrinfoSlot.Phase.RESOLVED));
    }

    @Test
    void shouldRefuseAResultThatNoResolutionWaitsFor()
    {
        final AddrinfoSlot slot = new AddrinfoSlot();

        assertThrows(IllegalStateException.class, () -> slot.resolved(List.of()));
        assertEquals(AddrinfoSlot.Phase.IDLE, slot.phase());
    }

    @Test
    void shouldRefuseASecondResolutionWithEbusyUntilTheFirstIsTaken() throws Exception
    {
        final AddrinfoSlot slot = new AddrinfoSlot();
        slot.begin();
        slot.resolved(List.of());

        final RdmaCmException ex = assertThrows(RdmaCmException.class, slot::begin);

        assertEquals(Errno.EBUSY, ex.errno());
        assertEquals(List.of(), slot.take());
        assertEquals(AddrinfoSlot.Phase.IDLE, slot.phase());
    }
}

package dev.rdmacm.cm;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static dev.rdmacm.cm.PendingResolution.State.CANCELLED;
import static dev.rdmacm.cm.PendingResolution.State.FAILED;
import static dev.rdmacm.cm.PendingResolution.State.RESOLVED;
import static dev.rdmacm.cm.PendingResolution.State.SUBMITTED;
import static dev.rdmacm.cm.PendingResolution.State.WAITING_FOR_NEIGHBOUR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A pending resolution's diagram ({@link PendingResolution#TRANSITIONS}). */
class AddressPhaseTransitionsTest
{
    private static final TransitionTable<PendingResolution.State> TABLE = PendingResolution.TRANSITIONS;

    @Test
    void shouldEndASubmittedResolutionAtOnceOrWait()
    {
        assertEquals(EnumSet.of(WAITING_FOR_NEIGHBOUR, RESOLVED, FAILED), TABLE.successors(SUBMITTED));
    }

    @Test
    void shouldCancelOnlyAResolutionThatWaits()
    {
        assertEquals(EnumSet.of(RESOLVED, FAILED, CANCELLED), TABLE.successors(WAITING_FOR_NEIGHBOUR));
        assertThrows(IllegalStateException.class, () -> TABLE.require("p", SUBMITTED, CANCELLED));
    }

    @Test
    void shouldKeepEveryEndFinal()
    {
        for (final PendingResolution.State end : EnumSet.of(RESOLVED, FAILED, CANCELLED))
        {
            assertEquals(EnumSet.noneOf(PendingResolution.State.class), TABLE.successors(end), end.name());
        }
    }
}

package dev.rdmacm.cm;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static dev.rdmacm.cm.PendingRoute.State.ACM_QUERY;
import static dev.rdmacm.cm.PendingRoute.State.CANCELLED;
import static dev.rdmacm.cm.PendingRoute.State.ERROR;
import static dev.rdmacm.cm.PendingRoute.State.REFUSED;
import static dev.rdmacm.cm.PendingRoute.State.RESOLVED;
import static dev.rdmacm.cm.PendingRoute.State.ROCE_SYNTH;
import static dev.rdmacm.cm.PendingRoute.State.SA_QUERY;
import static dev.rdmacm.cm.PendingRoute.State.SUBMITTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A pending route's diagram ({@link PendingRoute#TRANSITIONS}), which {@link RoutePhase} follows. */
class RoutePhaseTransitionsTest
{
    private static final TransitionTable<PendingRoute.State> TABLE = PendingRoute.TRANSITIONS;

    @Test
    void shouldAskAcmOrTakeTheKernelsWayOrRefuseASubmittedRoute()
    {
        assertEquals(EnumSet.of(ACM_QUERY, SA_QUERY, ROCE_SYNTH, REFUSED), TABLE.successors(SUBMITTED));
    }

    @Test
    void shouldEndAnAcmQueryWithItsRouteOrGoOnTheKernelsWay()
    {
        assertEquals(EnumSet.of(RESOLVED, SA_QUERY, ROCE_SYNTH, REFUSED, CANCELLED), TABLE.successors(ACM_QUERY));
    }

    @Test
    void shouldEndAnSaQueryWithAnEventOrCancelIt()
    {
        assertEquals(EnumSet.of(RESOLVED, ERROR, CANCELLED), TABLE.successors(SA_QUERY));
    }

    @Test
    void shouldNeverCancelTheRoceSynthesisWhichRunsAtOnce()
    {
        assertEquals(EnumSet.of(RESOLVED, REFUSED), TABLE.successors(ROCE_SYNTH));
        assertFalse(TABLE.isLegal(ROCE_SYNTH, ERROR), "a RoCE path's failure is the call's, never a ROUTE_ERROR");
    }

    @Test
    void shouldKeepEveryEndFinal()
    {
        for (final PendingRoute.State end : EnumSet.of(RESOLVED, ERROR, REFUSED, CANCELLED))
        {
            assertEquals(EnumSet.noneOf(PendingRoute.State.class), TABLE.successors(end), end.name());
        }
    }
}

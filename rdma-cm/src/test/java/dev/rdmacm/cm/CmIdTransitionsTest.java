package dev.rdmacm.cm;

import org.junit.jupiter.api.Test;

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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The id's state diagram, {@link CmIdTransitions}: each move the CM makes, and those it never makes. */
class CmIdTransitionsTest
{
    private static final TransitionTable<CmIdState> TABLE = CmIdTransitions.TABLE;

    @Test
    void shouldLetAnIdleIdOnlyBindBecomeAConnectionRequestsIdOrBeDestroyed()
    {
        assertEquals(EnumSet.of(ADDR_BOUND, CONNECT, DESTROYING), TABLE.successors(IDLE));
    }

    @Test
    void shouldLetABoundIdResolveListenLoseItsDeviceOrBeDestroyed()
    {
        assertEquals(EnumSet.of(ADDR_QUERY, LISTEN, DEVICE_REMOVAL, DESTROYING), TABLE.successors(ADDR_BOUND));
    }

    @Test
    void shouldEndAnAddressQueryResolvedOrBackWhereTheCallFoundTheId()
    {
        assertEquals(EnumSet.of(ADDR_RESOLVED, ADDR_BOUND, IDLE, DEVICE_REMOVAL, DESTROYING), TABLE.successors(ADDR_QUERY));
    }

    @Test
    void shouldLetAResolvedAddressQueryARouteOrTakeAGivenPath()
    {
        assertEquals(EnumSet.of(ROUTE_QUERY, ROUTE_RESOLVED, DEVICE_REMOVAL, DESTROYING), TABLE.successors(ADDR_RESOLVED));
    }

    @Test
    void shouldEndARouteQueryResolvedOrBackAtAddrResolved()
    {
        assertEquals(EnumSet.of(ROUTE_RESOLVED, ADDR_RESOLVED, DEVICE_REMOVAL, DESTROYING), TABLE.successors(ROUTE_QUERY));
    }

    @Test
    void shouldConnectOnlyFromRouteResolved()
    {
        for (final CmIdState from : CmIdState.values())
        {
            assertEquals(from == IDLE || from == ROUTE_RESOLVED, TABLE.isLegal(from, CONNECT), from + " -> CONNECT");
        }
    }

    @Test
    void shouldListenOnlyFromAddrBound()
    {
        for (final CmIdState from : CmIdState.values())
        {
            assertEquals(from == ADDR_BOUND, TABLE.isLegal(from, LISTEN), from + " -> LISTEN");
        }
    }

    @Test
    void shouldLetAConnectionsEventsMoveItBetweenEstablishedAndDisconnect()
    {
        for (final CmIdState from : EnumSet.of(CONNECT, ESTABLISHED, DISCONNECT, DEVICE_REMOVAL))
        {
            for (final CmIdState to : EnumSet.of(ESTABLISHED, DISCONNECT))
            {
                assertTrue(from == to || TABLE.isLegal(from, to), from + " -> " + to);
            }
        }
        assertFalse(TABLE.isLegal(LISTEN, ESTABLISHED));
        assertFalse(TABLE.isLegal(ROUTE_RESOLVED, ESTABLISHED));
    }

    @Test
    void shouldNeverLeaveDestroying()
    {
        assertEquals(EnumSet.noneOf(CmIdState.class), TABLE.successors(DESTROYING));
    }

    @Test
    void shouldReachDeviceRemovalFromEveryBoundStateOnly()
    {
        for (final CmIdState from : CmIdState.values())
        {
            assertEquals(CmIdTransitions.BOUND.contains(from), TABLE.isLegal(from, DEVICE_REMOVAL), from + " -> DEVICE_REMOVAL");
        }
        assertFalse(CmIdTransitions.BOUND.contains(IDLE));
    }

    @Test
    void shouldRefuseAMoveTheDiagramDoesNotDrawNamingBothStates()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> TABLE.require("RdmaCmId#7", IDLE, ROUTE_RESOLVED));

        assertTrue(ex.getMessage().contains("RdmaCmId#7: IDLE -> ROUTE_RESOLVED is not a legal transition"), ex.getMessage());
    }
}

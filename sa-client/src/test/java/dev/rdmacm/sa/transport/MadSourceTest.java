package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MadSourceTest
{
    private static final Gid SA_GID = Gid.parse("::ffff:10.10.0.2");
    private static final Gid OTHER_GID = Gid.parse("::ffff:10.10.0.3");

    @Test
    void shouldTellRocePeersApartByGidAlone()
    {
        final MadAddress sa = MadAddress.gsi(0, 0, SA_GID);

        assertTrue(new MadSource().set(0, 1, SA_GID.subnetPrefix(), SA_GID.interfaceId()).isFrom(sa));
        assertFalse(new MadSource().set(0, 1, OTHER_GID.subnetPrefix(), OTHER_GID.interfaceId()).isFrom(sa));
    }

    @Test
    void shouldRefuseAnAnswerWithoutAGrhWhenTheSaIsAddressedByGid()
    {
        assertFalse(new MadSource().set(0, 1).isFrom(MadAddress.gsi(0, 0, SA_GID)));
    }

    @Test
    void shouldIgnoreAGrhWhenTheSaIsAddressedByLid()
    {
        assertTrue(new MadSource().set(5, 1, OTHER_GID.subnetPrefix(), OTHER_GID.interfaceId()).isFrom(MadAddress.gsi(5, 0, 0)));
        assertFalse(new MadSource().set(6, 1).isFrom(MadAddress.gsi(5, 0, 0)));
        assertFalse(new MadSource().set(5, 2).isFrom(MadAddress.gsi(5, 0, 0)));
    }

    @Test
    void shouldForgetTheGidOfTheLastMadWhenSetWithoutOne()
    {
        final MadSource source = new MadSource().set(0, 1, SA_GID.subnetPrefix(), SA_GID.interfaceId());

        source.set(5, 1);

        assertFalse(source.hasGid());
        assertNull(source.gid());
        assertEquals("LID 5 QP 1", source.toString());
    }

    @Test
    void shouldAllowLidZeroOnlyWithAGid()
    {
        assertEquals("GID ::ffff:10.10.0.2", MadAddress.gsi(0, 0, SA_GID).where());
        assertEquals("LID 5", MadAddress.gsi(5, 0, 0).where());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> MadAddress.gsi(0, 0, 0));
        assertEquals("LID 0 out of range: a destination LID is 1..0xffff, or 0 with a GID (RoCE, which has no LIDs)", ex.getMessage());
    }

    @Test
    void shouldRouteARedirectByItsLid()
    {
        assertNull(MadAddress.gsi(0, 0, SA_GID).withLidAndQp(7, 3, 0x1234).remoteGid());
    }

    @Test
    void shouldAddressTheSaByGidWhenThePortNamesOne()
    {
        final Gid local = Gid.parse("::ffff:10.10.0.1");

        assertEquals(MadAddress.gsi(0, 0, SA_GID), new LocalPort("rxe0:1", 0, 1, local, 0, 0, SA_GID).saAddress());
        assertEquals(MadAddress.gsi(1, 0, 0), new LocalPort("mlx5_0:1", 5, 1, local, 1, 0).saAddress());
    }
}

package dev.rdmacm.resolver.engine;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.sa.path.PathQuery;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbRouteQueryTest
{
    private static final Gid SGID = Gid.parse("fe80::10:4");
    private static final Gid DGID = Gid.parse("fe80::10:7");

    @Test
    void shouldUseTheKernelMaskForIpv4()
    {
        final PathQuery query = IbRouteQuery.ipv4(SGID, DGID, 0xffff, IbRouteQuery.ipServiceId(PortSpace.TCP, 7471), 0);

        assertEquals(0x780FL, query.componentMask());
    }

    @Test
    void shouldUseTheKernelMaskForIpv6AndIb()
    {
        assertEquals(0x3C0FL, IbRouteQuery.ipv6(SGID, DGID, 0xffff, 0x1060000L, 0).componentMask());
        assertEquals(0x3C0FL, IbRouteQuery.ib(SGID, DGID, 0x8001, 0x13f0000L, 0).componentMask());
    }

    @Test
    void shouldNameTheMaskBitsTheKernelSets()
    {
        final long expected = PathRecordComponentMask.SERVICE_ID | PathRecordComponentMask.DGID |
            PathRecordComponentMask.SGID | PathRecordComponentMask.REVERSIBLE | PathRecordComponentMask.NUMB_PATH |
            PathRecordComponentMask.P_KEY;

        assertEquals(expected | PathRecordComponentMask.QOS_CLASS,
            IbRouteQuery.ipv4(SGID, DGID, 0xffff, 1, 0).componentMask());
        assertEquals(expected | PathRecordComponentMask.TCLASS,
            IbRouteQuery.ipv6(SGID, DGID, 0xffff, 1, 0).componentMask());
    }

    @Test
    void shouldWriteGidsPkeyServiceIdAndQosClassFromTheTos()
    {
        final PathQuery query = IbRouteQuery.ipv4(SGID, DGID, 0x8001, IbRouteQuery.ipServiceId(PortSpace.TCP, 7471), 0xb8);
        final PathRecord record = new PathRecord().wrap(new UnsafeBuffer(query.encode()), 0, PathRecord.LENGTH);

        assertEquals(SGID, record.sgid());
        assertEquals(DGID, record.dgid());
        assertEquals(0x8001, record.pKey());
        assertEquals(0x0000000001061d2fL, record.serviceId());
        assertEquals(0xb8, record.qosClass());
        assertEquals(1, record.numbPath());
        assertTrue(record.reversible());
        assertEquals(0, record.tClass());
    }

    @Test
    void shouldTakeTheTrafficClassFromBits20To27OfTheSourceFlowinfo()
    {
        final PathQuery query = IbRouteQuery.ipv6(SGID, DGID, 0xffff, 1, 0x0ab12345);
        final PathRecord record = new PathRecord().wrap(new UnsafeBuffer(query.encode()), 0, PathRecord.LENGTH);

        assertEquals(0xab, record.tClass());
        assertEquals(0, record.qosClass());
    }

    @Test
    void shouldKeepOnlyTheLowByteOfTheShiftedFlowinfoAsTheKernelsU8CastDoes()
    {
        assertEquals(0xff, IbRouteQuery.trafficClass(0xfff00000));
    }

    @Test
    void shouldRejectATosThatIsNotAByte()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> IbRouteQuery.ipv4(SGID, DGID, 0xffff, 1, 256));
        assertEquals("ToS 256 out of range 0..255", ex.getMessage());
    }
}

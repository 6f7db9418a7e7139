package dev.rdmacm.resolver;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.sa.path.PathRecordValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class RoutePathTest
{
    private static final Gid DGID = Gid.parse("fe80::2:c903:a:1");
    private static final Gid SGID = Gid.parse("fe80::2:c903:b:2");

    /** Every field a value no other field has, so a field written to its neighbour's place shows. */
    private static RoutePath distinct()
    {
        return new RoutePath(0x2b, new PathRecordValue(0x1122_3344_5566_7788L, DGID, SGID, Lid.of(0x0a0b), Lid.of(0x0c0d),
            true, 0xabcde, 0x3f, 0x5a, true, 0x7e, PKey.of(0x8001), 0xfed, 0x9, 2, 5, 3, 0x2e, 1, 0x11, 0x77));
    }

    @Test
    void shouldWriteEveryFieldWhereIbvPathDataHasIt()
    {
        final byte[] bytes = distinct().toPathData();
        final IbvPathData data = new IbvPathData().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        final IbvPathRecord path = data.path();

        assertEquals(IbvPathData.LENGTH, bytes.length);
        assertEquals(0x2bL, data.flags());
        assertEquals(0x1122_3344_5566_7788L, path.serviceId());
        assertEquals(DGID, path.dgid());
        assertEquals(SGID, path.sgid());
        assertEquals(0x0a0b, path.dlid());
        assertEquals(0x0c0d, path.slid());
        assertTrue(path.kernelRawTrafficBit());
        assertEquals(0xabcde, path.flowLabel());
        assertEquals(0x3f, path.hopLimit());
        assertEquals(0x5a, path.tClass());
        assertTrue(path.reversible());
        assertEquals(0x7e, path.numbPath());
        assertEquals(0x8001, path.pKey());
        assertEquals(0xfed, path.qosClass());
        assertEquals(0x9, path.sl());
        assertEquals(2, path.mtuSelector());
        assertEquals(5, path.mtu());
        assertEquals(3, path.rateSelector());
        assertEquals(0x2e, path.rate());
        assertEquals(1, path.packetLifeTimeSelector());
        assertEquals(0x11, path.packetLifeTime());
        assertEquals(0x77, path.preference());
    }

    @Test
    void shouldReadBackThePathItWrote()
    {
        assertEquals(distinct(), RoutePath.fromPathData(distinct().toPathData()));
    }

    @Test
    void shouldWriteTheReservedBitsItWasGivenAsZero()
    {
        final byte[] given = distinct().toPathData();
        final UnsafeBuffer buffer = new UnsafeBuffer(given);
        buffer.putInt(IbvPathData.RESERVED_OFFSET, -1);
        final int word = IbvPathData.PATH_OFFSET + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET;
        buffer.putInt(word, buffer.getInt(word, ByteOrder.BIG_ENDIAN) | 0x7000_0000, ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < IbvPathRecord.RESERVED_LENGTH; i++)
        {
            buffer.putByte(IbvPathData.PATH_OFFSET + IbvPathRecord.RESERVED_OFFSET + i, (byte)0xff);
        }

        final byte[] again = RoutePath.fromPathData(given).toPathData();

        assertEquals(distinct(), RoutePath.fromPathData(given));
        assertEquals(java.util.HexFormat.of().formatHex(distinct().toPathData()), java.util.HexFormat.of().formatHex(again));
    }

    @Test
    void shouldRefuseFlagsWiderThanTheirThirtyTwoBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RoutePath(1L << 32, distinct().record()));

        assertEquals("ibv_path_data flags 0x100000000 do not fit the 32-bit field", ex.getMessage());
    }

    @Test
    void shouldRefuseAnIbvPathDataOfAnotherLength()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RoutePath.fromPathData(new byte[IbvPathRecord.LENGTH]));

        assertEquals("ibv_path_data must be 72 bytes, got 64", ex.getMessage());
    }

    @Test
    void shouldHandTheApplicationTheRawTrafficBitAsBitTwentyThreeOfTheFlowLabel()
    {
        assertEquals(0x80_0000 | 0xabcde, distinct().librdmacmFlowLabel());
    }

    @Test
    void shouldHandTheApplicationTheLowByteOfTheFlagsAsPreference()
    {
        assertEquals(43, distinct().librdmacmPreference());
    }

    @Test
    void shouldNameTheFlagsWhenPrinted()
    {
        assertTrue(distinct().toString().startsWith("RoutePath[flags=GMP|PRIMARY|OUTBOUND|INBOUND_REVERSE, record="),
            distinct().toString());
    }
}

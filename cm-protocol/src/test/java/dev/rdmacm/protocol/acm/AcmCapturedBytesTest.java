package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bytes captured from the real ib_acme and librdmacm (reference rdmacm-semantics.md section 4.6)
 * decode to the right fields, and encoding the same fields gives the same bytes.
 */
class AcmCapturedBytesTest
{
    private static final String ZERO60 = "00".repeat(60);

    /** {@code ib_acme -f i -s 192.0.2.2 -d 192.0.2.3}. */
    private static final String RESOLVE_IP_REQUEST =
        "010100000000a000" + "0000000000000000"
        + "0100000002000000c0000202" + ZERO60
        + "0200000002000000c0000203" + ZERO60;

    /** {@code ib_acme -f g -s fe80::2:c903:0:1 -d fe80::2:c903:0:2}. */
    private static final String RESOLVE_GID_REQUEST =
        "0101000000005800" + "0000000000000000"
        + "0000000010000000"
        + "0000000000000000" + "fe800000000000000002c90300000002" + "fe800000000000000002c90300000001"
        + "0000" + "0000" + "00000000" + "00" + "81" + "0000" + "0000" + "00" + "00" + "00" + "00" + "000000000000";

    /** The hand-made success reply ib_acme and librdmacm accepted. */
    private static final String RESOLVE_REPLY =
        "010100000000a000" + "0000000000000000"
        + "2b00000010000000"
        + "0000000000000000" + "fe800000000000000002c90300000002" + "fe800000000000000002c90300000001"
        + "0005" + "0001" + "00000000" + "00" + "81" + "ffff" + "0000" + "84" + "87" + "92" + "00" + "000000000000"
        + "0100000002000000c0000202" + ZERO60;

    private static UnsafeBuffer bytes(final String hex)
    {
        return new UnsafeBuffer(BitUtil.fromHex(hex));
    }

    @Test
    void shouldDecodeIpResolveRequestWithLittleEndianLength()
    {
        final UnsafeBuffer buffer = bytes(RESOLVE_IP_REQUEST);
        final AcmHeader header = new AcmHeader().wrap(buffer, 0, buffer.capacity());
        assertEquals(1, header.version());
        assertEquals(AcmOp.RESOLVE, header.opcode());
        assertEquals(0, header.status());
        assertEquals(160, header.length());
        assertEquals(0, header.tid());

        final AcmEpAddrData entry = new AcmEpAddrData();
        entry.wrap(buffer, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
        assertEquals(AcmEpFlags.SOURCE, entry.flags());
        assertEquals(AcmEpType.ADDRESS_IP, entry.type());
        assertEquals(0xc0000202, entry.ipv4());

        entry.wrap(buffer, AcmHeader.LENGTH + AcmEpAddrData.LENGTH, AcmEpAddrData.LENGTH);
        assertEquals(AcmEpFlags.DEST, entry.flags());
        assertEquals(AcmEpType.ADDRESS_IP, entry.type());
        assertEquals(0xc0000203, entry.ipv4());
    }

    @Test
    void shouldEncodeIpResolveRequestToCapturedBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmMessage.resolveLength(2)]);
        new AcmHeader().wrap(buffer, 0).version(AcmHeader.VERSION).opcode(AcmOp.RESOLVE)
            .length(AcmMessage.resolveLength(2));
        final AcmEpAddrData entry = new AcmEpAddrData();
        entry.wrap(buffer, AcmHeader.LENGTH).flags(AcmEpFlags.SOURCE).type(AcmEpType.ADDRESS_IP).ipv4(0xc0000202);
        entry.wrap(buffer, AcmHeader.LENGTH + AcmEpAddrData.LENGTH).flags(AcmEpFlags.DEST)
            .type(AcmEpType.ADDRESS_IP).ipv4(0xc0000203);

        assertEquals(RESOLVE_IP_REQUEST, BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldDecodeNodelayFlagAsIbAcmeMinusCSendsIt()
    {
        final UnsafeBuffer buffer = bytes("02000040" + "0200" + "0000" + "c0000203" + ZERO60);
        final AcmEpAddrData entry = new AcmEpAddrData().wrap(buffer, 0, buffer.capacity());
        assertTrue(entry.hasFlag(AcmEpFlags.DEST));
        assertTrue(entry.hasFlag(AcmEpFlags.NODELAY));
        assertEquals(0x40000002L, entry.flags());
    }

    @Test
    void shouldDecodeGidPathRequest()
    {
        final UnsafeBuffer buffer = bytes(RESOLVE_GID_REQUEST);
        final AcmHeader header = new AcmHeader().wrap(buffer, 0, buffer.capacity());
        assertEquals(88, header.length());
        final AcmEpAddrData entry = new AcmEpAddrData().wrap(buffer, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
        assertEquals(0, entry.flags());
        assertEquals(AcmEpType.PATH, entry.type());
        final IbvPathRecord path = entry.path(new IbvPathRecord());
        assertEquals(Gid.parse("fe80::2:c903:0:2"), path.dgid());
        assertEquals(Gid.parse("fe80::2:c903:0:1"), path.sgid());
        assertEquals(0, path.dlid());
        assertTrue(path.reversible());
        assertEquals(1, path.numbPath());
    }

    @Test
    void shouldDecodeReplyPathAndSourceEntries()
    {
        final UnsafeBuffer buffer = bytes(RESOLVE_REPLY);
        final AcmEpAddrData entry = new AcmEpAddrData().wrap(buffer, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
        assertEquals(AcmEpFlags.RESOLVED_PATH, entry.flags());
        assertEquals(0x2b, entry.flags());
        assertEquals(AcmEpType.PATH, entry.type());
        assertEquals(5, entry.path(new IbvPathRecord()).dlid());
        assertEquals(1, entry.path(new IbvPathRecord()).slid());
        entry.wrap(buffer, AcmHeader.LENGTH + AcmEpAddrData.LENGTH, AcmEpAddrData.LENGTH);
        assertEquals(AcmEpFlags.SOURCE, entry.flags());
        assertEquals(0xc0000202, entry.ipv4());
    }

    @Test
    void shouldDecodeBigEndianLengthOfPerfQuery()
    {
        final UnsafeBuffer buffer = bytes("01020000000000100000000000000000");
        final AcmHeader header = new AcmHeader().wrap(buffer, 0, buffer.capacity());
        assertEquals(AcmOp.PERF_QUERY, header.operation());
        assertEquals(16, header.length());
        assertEquals(0, header.srcIndex());
    }

    @Test
    void shouldDecodeEndpointQueryIndexAndPort()
    {
        final UnsafeBuffer buffer = bytes("01030001010000100000000000000000");
        final AcmHeader header = new AcmHeader().wrap(buffer, 0, buffer.capacity());
        assertEquals(AcmOp.EP_QUERY, header.operation());
        assertEquals(16, header.length());
        assertEquals(1, header.srcOut());
        assertEquals(1, header.srcIndex());
    }

    @Test
    void shouldEncodePerfReplyCountersBigEndian()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmHeader.LENGTH + AcmPerfData.LENGTH]);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.PERF_QUERY | AcmOp.ACK)
            .srcOut(AcmCounter.COUNT).length(buffer.capacity());
        final AcmPerfData perf = new AcmPerfData().wrap(buffer, AcmHeader.LENGTH);
        for (int i = 0; i < AcmCounter.COUNT; i++)
        {
            perf.counter(i, i + 1);
        }
        final String hex = BitUtil.toHex(buffer.byteArray());
        assertEquals("01820007000000480000000000000000", hex.substring(0, 32));
        assertEquals("0000000000000001", hex.substring(32, 48));
        assertEquals("0000000000000007", hex.substring(hex.length() - 16));
    }

    @Test
    void shouldRoundTripEndpointConfig()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmEpConfigData.encodedLength(2)]);
        new AcmEpConfigData().wrap(buffer, 0).devGuid(0x0002c90300000001L).portNum(1).physPortCnt(2)
            .pkey(0xffff).addrCnt(2).provName("rdmacm-java").addr(0, "192.0.2.2").addr(1, "host-a");
        final AcmEpConfigData read = new AcmEpConfigData().wrap(buffer, 0, buffer.capacity());
        assertEquals(0x0002c90300000001L, read.devGuid());
        assertEquals(1, read.portNum());
        assertEquals(2, read.physPortCnt());
        assertEquals(0xffff, read.pkey());
        assertEquals("rdmacm-java", read.provName());
        assertEquals("192.0.2.2", read.addr(0));
        assertEquals("host-a", read.addr(1));
        assertEquals("0002c90300000001010200", BitUtil.toHex(buffer.byteArray()).substring(0, 22));
    }

    @Test
    void shouldRejectTruncatedHeaderNamingTheRule()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new AcmHeader().wrap(new UnsafeBuffer(new byte[15]), 0, 15));
        assertEquals("ACM header: 15 bytes present, the format needs at least 16", ex.getMessage());
    }

    @Test
    void shouldRejectEndpointConfigShorterThanItsAddressCount()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmEpConfigData.LENGTH]);
        new AcmEpConfigData().wrap(buffer, 0).addrCnt(3);
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new AcmEpConfigData().wrap(buffer, 0, buffer.capacity()));
        assertEquals("ACM endpoint config with addr_cnt 3: 80 bytes present, the format needs at least 272",
            ex.getMessage());
    }

    @Test
    void shouldReadNameUpToNul()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmEpAddrData.LENGTH]);
        final AcmEpAddrData entry = new AcmEpAddrData().wrap(buffer, 0).type(AcmEpType.NAME).name("node-7");
        assertEquals("node-7", entry.name());
        assertEquals("6e6f64652d3700", BitUtil.toHex(buffer.byteArray()).substring(16, 30));
    }
}

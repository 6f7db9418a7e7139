package dev.rdmacm.files.pcap;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.capture.UdMadPacket;
import dev.rdmacm.protocol.capture.PcapFormat;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.Tshark;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ErfPcapWriterTest
{
    private static final long TIMESTAMP_NANOS = 1_764_417_600_123_456_789L;
    private static final long TRANSACTION_ID = 0x1234_5678_9abc_def0L;

    @TempDir
    Path dir;

    private static UnsafeBuffer subnAdmGetPathRecord()
    {
        final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        new MadHeader().wrap(mad, 0).baseVersion(1).mgmtClass(0x03).classVersion(2).method(0x01)
            .status(0).transactionId(TRANSACTION_ID).attributeId(0x0035).attributeModifier(0);
        return mad;
    }

    private static UnsafeBuffer subnAdmGetPathRecordResponse()
    {
        final UnsafeBuffer mad = subnAdmGetPathRecord();
        new MadHeader().wrap(mad, 0).method(0x81).status(0x0300);
        return mad;
    }

    private Path writeRequestAndResponse() throws IOException
    {
        final Path pcap = dir.resolve("sa.pcap");
        try (ErfPcapWriter writer = new ErfPcapWriter(FileChannel.open(pcap, CREATE, WRITE, TRUNCATE_EXISTING)))
        {
            writer.write(CaptureDirection.SENT, subnAdmGetPathRecord(), 0, MadHeader.MAD_SIZE,
                4, 1, 1, 1, 0xffff, Gsi.QKEY, TIMESTAMP_NANOS);
            writer.write(CaptureDirection.RECEIVED, subnAdmGetPathRecordResponse(), 0, MadHeader.MAD_SIZE,
                1, 4, 1, 1, 0xffff, Gsi.QKEY, TIMESTAMP_NANOS + 1_000);
        }
        return pcap;
    }

    @Test
    void shouldHaveTsharkDecodeTheMadHeaderWeEncoded() throws IOException
    {
        final List<Map<String, List<String>>> packets = Tshark.decode(writeRequestAndResponse(),
            "infiniband.mad.method", "infiniband.mad.attributeid", "infiniband.mad.transactionid",
            "infiniband.mad.status", "infiniband.mad.mgmtclass", "infiniband.mad.classversion");

        assertEquals(2, packets.size());
        assertEquals(Map.of(
            "infiniband.mad.method", List.of("0x01"),
            "infiniband.mad.attributeid", List.of("0x0035"),
            "infiniband.mad.transactionid", List.of("0x123456789abcdef0"),
            "infiniband.mad.status", List.of("0x0000"),
            "infiniband.mad.mgmtclass", List.of("0x03"),
            "infiniband.mad.classversion", List.of("0x02")), packets.get(0));
        assertEquals(List.of("0x81"), packets.get(1).get("infiniband.mad.method"));
        assertEquals(List.of("0x0300"), packets.get(1).get("infiniband.mad.status"));
    }

    @Test
    void shouldHaveTsharkDecodeTheUdFramingWeEncoded() throws IOException
    {
        final List<Map<String, List<String>>> packets = Tshark.decode(writeRequestAndResponse(),
            "infiniband.lrh.vl", "infiniband.lrh.lver", "infiniband.lrh.sl", "infiniband.lrh.lnh",
            "infiniband.lrh.dlid", "infiniband.lrh.pktlen", "infiniband.lrh.slid", "infiniband.bth.opcode",
            "infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.deth.q_key",
            "infiniband.deth.srcqp", "_ws.malformed");

        assertEquals(Map.ofEntries(
            Map.entry("infiniband.lrh.vl", List.of("0x00")),
            Map.entry("infiniband.lrh.lver", List.of("0")),
            Map.entry("infiniband.lrh.sl", List.of("0")),
            Map.entry("infiniband.lrh.lnh", List.of("0x02")),
            Map.entry("infiniband.lrh.dlid", List.of("1")),
            Map.entry("infiniband.lrh.pktlen", List.of("72")),
            Map.entry("infiniband.lrh.slid", List.of("4")),
            Map.entry("infiniband.bth.opcode", List.of("100")),
            Map.entry("infiniband.bth.p_key", List.of("65535")),
            Map.entry("infiniband.bth.destqp", List.of("0x000001")),
            Map.entry("infiniband.bth.psn", List.of("0")),
            Map.entry("infiniband.deth.q_key", List.of("0x0000000080010000")),
            Map.entry("infiniband.deth.srcqp", List.of("0x00000001"))), packets.get(0));
        assertEquals(List.of("4"), packets.get(1).get("infiniband.lrh.dlid"));
        assertEquals(List.of("1"), packets.get(1).get("infiniband.lrh.slid"));
    }

    @Test
    void shouldRecordDirectionAndTimestampInTheErfHeader() throws IOException
    {
        final List<Map<String, List<String>>> packets = Tshark.decode(writeRequestAndResponse(),
            "erf.types.type", "erf.flags.cap", "erf.flags.vlen", "erf.rlen", "erf.wlen", "frame.time_epoch");

        assertEquals(Map.of(
            "erf.types.type", List.of("21"),
            "erf.flags.cap", List.of("0"),
            "erf.flags.vlen", List.of("1"),
            "erf.rlen", List.of("306"),
            "erf.wlen", List.of("290"),
            "frame.time_epoch", List.of("1764417600.123456789")), packets.get(0));
        assertEquals(List.of("1"), packets.get(1).get("erf.flags.cap"));
    }

    @Test
    void shouldHaveTsharkDecodeAFrameWithAGrh() throws IOException
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[UdMadPacket.GLOBAL_FRAME_LENGTH]);
        final UdMadPacket packet = new UdMadPacket().wrapForFraming(frame, 0, true);
        packet.lrh().serviceLevel(3).dlid(0x10).slid(0x20);
        packet.grh().trafficClass(0x40).flowLabel(0x12345).hopLimit(0xff)
            .sgid(0xfe80_0000_0000_0000L, 0x0002_c903_0000_0001L)
            .dgid(0xfe80_0000_0000_0000L, 0x0002_c903_0000_0002L);
        packet.bth().pkey(0x8001).destQp(1);
        packet.deth().qkey(Gsi.QKEY).sourceQp(1);
        frame.putBytes(packet.madOffset(), subnAdmGetPathRecord(), 0, MadHeader.MAD_SIZE);

        final Path pcap = dir.resolve("grh.pcap");
        try (ErfPcapWriter writer = new ErfPcapWriter(Files.newOutputStream(pcap)))
        {
            writer.writeFrame(CaptureDirection.SENT, frame, 0, packet.frameLength(), TIMESTAMP_NANOS);
        }

        final Map<String, List<String>> decoded = Tshark.decode(pcap,
            "infiniband.lrh.lnh", "infiniband.lrh.pktlen", "infiniband.lrh.sl", "infiniband.grh.ipver",
            "infiniband.grh.tclass", "infiniband.grh.flowlabel", "infiniband.grh.paylen", "infiniband.grh.nxthdr",
            "infiniband.grh.hoplmt", "infiniband.grh.sgid", "infiniband.grh.dgid", "infiniband.bth.p_key",
            "infiniband.mad.transactionid", "_ws.malformed").get(0);
        assertEquals(Map.ofEntries(
            Map.entry("infiniband.lrh.lnh", List.of("0x03")),
            Map.entry("infiniband.lrh.pktlen", List.of("82")),
            Map.entry("infiniband.lrh.sl", List.of("3")),
            Map.entry("infiniband.grh.ipver", List.of("6")),
            Map.entry("infiniband.grh.tclass", List.of("64")),
            Map.entry("infiniband.grh.flowlabel", List.of("74565")),
            Map.entry("infiniband.grh.paylen", List.of("280")),
            Map.entry("infiniband.grh.nxthdr", List.of("27")),
            Map.entry("infiniband.grh.hoplmt", List.of("255")),
            Map.entry("infiniband.grh.sgid", List.of("fe80::2:c903:0:1")),
            Map.entry("infiniband.grh.dgid", List.of("fe80::2:c903:0:2")),
            Map.entry("infiniband.bth.p_key", List.of("32769")),
            Map.entry("infiniband.mad.transactionid", List.of("0x123456789abcdef0"))), decoded);
    }

    @Test
    void shouldWriteThePcapAndErfHeadersByteForByte() throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ErfPcapWriter writer = new ErfPcapWriter(out))
        {
            writer.write(CaptureDirection.RECEIVED, subnAdmGetPathRecord(), 0, MadHeader.MAD_SIZE,
                1, 4, 1, 1, 0xffff, Gsi.QKEY, 2_500_000_000L);
        }
        final byte[] bytes = out.toByteArray();

        assertEquals(PcapFormat.PCAP_HEADER_LENGTH + 16 + 16 + UdMadPacket.LOCAL_FRAME_LENGTH, bytes.length);
        assertEquals(
            "4d3cb2a1" + "0200" + "0400" + "00000000" + "00000000" + "ffff0000" + "c5000000" +
            "02000000" + "0065cd1d" + "32010000" + "32010000" +
            "00000080" + "02000000" + "15" + "05" + "0132" + "0000" + "0122" +
            "0002" + "0004" + "0048" + "0001" +
            "6400ffff" + "00000001" + "00000000" +
            "80010000" + "00000001",
            BitUtil.toHex(Arrays.copyOf(bytes, 24 + 16 + 16 + 28)));
    }

    @Test
    void shouldPadAShortMadWithZeros() throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final UnsafeBuffer mad = subnAdmGetPathRecord();
        try (ErfPcapWriter writer = new ErfPcapWriter(out))
        {
            writer.write(CaptureDirection.SENT, mad, 0, MadHeader.LENGTH, 1, 4, 1, 1, 0xffff, 0, 0);
        }
        final byte[] madBytes = Arrays.copyOfRange(out.toByteArray(), 24 + 32 + UdMadPacket.MAD_OFFSET_LOCAL,
            24 + 32 + UdMadPacket.ICRC_OFFSET_LOCAL);

        final byte[] expected = new byte[MadHeader.MAD_SIZE];
        mad.getBytes(0, expected, 0, MadHeader.LENGTH);
        assertArrayEquals(expected, madBytes);
    }

    @Test
    void shouldRejectAMadLongerThan256Bytes() throws IOException
    {
        try (ErfPcapWriter writer = new ErfPcapWriter(new ByteArrayOutputStream()))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> writer.write(
                CaptureDirection.SENT, new UnsafeBuffer(new byte[300]), 0, 257, 1, 4, 1, 1, 0xffff, 0, 0));
            assertEquals("MAD length 257 is outside 0..256", ex.getMessage());
        }
    }

    @Test
    void shouldCloseTheChannelWhenThePcapHeaderCannotBeWritten() throws IOException
    {
        final Path pcap = dir.resolve("read-only.pcap");
        Files.createFile(pcap);
        final FileChannel readOnly = FileChannel.open(pcap, READ);

        assertThrows(NonWritableChannelException.class, () -> new ErfPcapWriter(readOnly));
        assertFalse(readOnly.isOpen());
    }

    @Test
    void shouldIgnoreASecondClose() throws IOException
    {
        final Path pcap = dir.resolve("twice.pcap");
        final ErfPcapWriter writer = new ErfPcapWriter(FileChannel.open(pcap, CREATE, WRITE));
        writer.close();
        writer.close();

        assertEquals(PcapFormat.PCAP_HEADER_LENGTH, Files.size(pcap));
    }

    @Test
    void shouldRejectAWriteAfterClose() throws IOException
    {
        final ErfPcapWriter writer = new ErfPcapWriter(new ByteArrayOutputStream());
        writer.close();

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> writer.write(
            CaptureDirection.SENT, subnAdmGetPathRecord(), 0, MadHeader.MAD_SIZE, 1, 4, 1, 1, 0xffff, 0, 0));
        assertEquals("pcap writer is closed", ex.getMessage());
    }

    @Test
    void shouldFlushABufferedStreamOnClose() throws IOException
    {
        final Path pcap = dir.resolve("buffered.pcap");
        try (ErfPcapWriter writer = new ErfPcapWriter(new java.io.BufferedOutputStream(Files.newOutputStream(pcap), 1 << 16)))
        {
            writer.write(CaptureDirection.SENT, subnAdmGetPathRecord(), 0, MadHeader.MAD_SIZE, 1, 4, 1, 1, 0xffff, 0, 0);
        }

        assertEquals(24 + 32 + UdMadPacket.LOCAL_FRAME_LENGTH, Files.size(pcap));
        assertFalse(Tshark.decode(pcap, "infiniband.mad.method").get(0).isEmpty());
    }
}

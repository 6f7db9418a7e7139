package dev.rdmacm.files.pcap;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.capture.UdMadPacket;
import dev.rdmacm.protocol.capture.PcapFormat;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writes MADs as InfiniBand UD packets into a pcap file that tshark and Wireshark open without
 * options: pcap link type 197 (ERF), each record an ERF header of type INFINIBAND followed by the
 * {@link UdMadPacket} frame.
 * <pre>
 *  file:    pcap header (24) | record | record | ...
 *  record:  pcap record header (16) | ERF header (16) | LRH BTH DETH MAD ICRC VCRC (290)
 *
 *  pcap header, little-endian:  magic a1b23c4d (nanosecond timestamps), version 2.4, thiszone 0,
 *                               sigfigs 0, snaplen 65535, network 197
 *  pcap record, little-endian:  ts_sec | ts_nsec | incl_len | orig_len  (both lengths 16 + 290)
 *
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        timestamp: fraction of a second (2^-32 s), LITTLE-endian |  0
 *  +---------------------------------------------------------------+
 *  |        timestamp: seconds since the epoch, LITTLE-endian        |  4
 *  +---------------+---------------+-------------------------------+
 *  |  type = 21    | flags 0x04|if |  rlen = 16 + packet length    |  8
 *  +---------------+---------------+-------------------------------+
 *  |  loss counter = 0             |  wlen = packet length         | 12
 *  +-------------------------------+-------------------------------+
 * </pre>
 * The flags byte sets "varying length" (0x04, so rlen need not be a multiple of 8) and puts the
 * {@link CaptureDirection} in the capture-interface bits. tshark takes the frame time from the ERF
 * timestamp; the pcap record carries the same instant.
 * <p>
 * One reused buffer, no allocation per packet. The writer owns the channel it is given and closes it.
 * Calls are serialised, so a sending and a receiving thread may share one writer.
 */
public final class ErfPcapWriter implements Closeable
{
    public static final int ERF_TIMESTAMP_OFFSET = 0;
    public static final int ERF_TYPE_OFFSET = 8;
    public static final int ERF_FLAGS_OFFSET = 9;
    public static final int ERF_RECORD_LENGTH_OFFSET = 10;
    public static final int ERF_LOSS_COUNTER_OFFSET = 12;
    public static final int ERF_WIRE_LENGTH_OFFSET = 14;
    public static final int ERF_HEADER_LENGTH = 16;

    public static final int ERF_TYPE_INFINIBAND = 21;
    public static final int ERF_FLAG_VARYING_LENGTH = 0x04;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int ERF_OFFSET = PcapFormat.RECORD_HEADER_LENGTH;
    private static final int FRAME_OFFSET = ERF_OFFSET + ERF_HEADER_LENGTH;

    private final WritableByteChannel channel;
    private final ByteBuffer byteBuffer =
        ByteBuffer.allocateDirect(FRAME_OFFSET + UdMadPacket.GLOBAL_FRAME_LENGTH);
    private final UnsafeBuffer record = new UnsafeBuffer(byteBuffer);
    private final UdMadPacket packet = new UdMadPacket();
    private boolean closed;

    /**
     * Starts a capture on {@code channel}, e.g. a {@link java.nio.channels.FileChannel}, writing the pcap
     * header. The channel is closed if that write fails.
     */
    public ErfPcapWriter(final WritableByteChannel channel) throws IOException
    {
        this.channel = channel;
        PcapFormat.putFileHeader(record, PcapFormat.PCAP_MAGIC_NANOSECONDS, PcapFormat.LINKTYPE_ERF);
        try
        {
            writeRecordBytes(PcapFormat.PCAP_HEADER_LENGTH);
        }
        catch (final IOException | RuntimeException ex)
        {
            closed = true;
            try
            {
                channel.close();
            }
            catch (final IOException suppressed)
            {
                ex.addSuppressed(suppressed);
            }
            throw ex;
        }
    }

    /** Starts a capture on {@code out}; {@link #close()} flushes and closes it. */
    public ErfPcapWriter(final OutputStream out) throws IOException
    {
        this(Channels.newChannel(out));
    }

    /**
     * Records one MAD as a UD packet without a GRH: LRH (VL 0, SL 0), BTH (UD SEND Only, PSN 0), DETH.
     *
     * @param mad            the MAD; {@code length} bytes from {@code offset}, at most 256. A shorter
     *                       MAD is padded with zeros, since tshark decodes a MAD only when all 256
     *                       bytes are present.
     * @param slid           LRH source LID.
     * @param dlid           LRH destination LID.
     * @param srcQp          DETH source QP (1 for QP1 and tshark decodes the MAD).
     * @param dstQp          BTH destination QP.
     * @param pkey           BTH P_Key, full-member bit included.
     * @param qkey           DETH Q_Key, e.g. {@link dev.rdmacm.protocol.mad.Gsi#QKEY}.
     * @param timestampNanos when, in nanoseconds since the epoch.
     * @throws IllegalArgumentException when {@code length} is negative or above 256.
     * @throws IllegalStateException    after {@link #close()}.
     */
    public synchronized void write(
        final CaptureDirection direction,
        final DirectBuffer mad,
        final int offset,
        final int length,
        final int slid,
        final int dlid,
        final int srcQp,
        final int dstQp,
        final int pkey,
        final long qkey,
        final long timestampNanos) throws IOException
    {
        requireOpen();
        if (length < 0 || length > MadHeader.MAD_SIZE)
        {
            throw new IllegalArgumentException("MAD length " + length + " is outside 0.." + MadHeader.MAD_SIZE);
        }
        packet.wrapForFraming(record, FRAME_OFFSET, false);
        packet.lrh().slid(slid).dlid(dlid);
        packet.bth().pkey(pkey).destQp(dstQp);
        packet.deth().qkey(qkey).sourceQp(srcQp);
        record.putBytes(FRAME_OFFSET + packet.madOffset(), mad, offset, length);
        writeFramed(direction, packet.frameLength(), timestampNanos);
    }

    /**
     * Records a frame that is already laid out ({@link UdMadPacket}, LRH through VCRC), e.g. one with
     * a GRH.
     *
     * @throws IllegalArgumentException when {@code length} is negative or longer than a frame with a GRH.
     * @throws IllegalStateException    after {@link #close()}.
     */
    public synchronized void writeFrame(
        final CaptureDirection direction,
        final DirectBuffer frame,
        final int offset,
        final int length,
        final long timestampNanos) throws IOException
    {
        requireOpen();
        if (length < 0 || length > UdMadPacket.GLOBAL_FRAME_LENGTH)
        {
            throw new IllegalArgumentException(
                "frame length " + length + " is outside 0.." + UdMadPacket.GLOBAL_FRAME_LENGTH);
        }
        record.putBytes(FRAME_OFFSET, frame, offset, length);
        writeFramed(direction, length, timestampNanos);
    }

    private void writeFramed(final CaptureDirection direction, final int frameLength, final long timestampNanos)
        throws IOException
    {
        final long seconds = Math.floorDiv(timestampNanos, NANOS_PER_SECOND);
        final long nanos = Math.floorMod(timestampNanos, NANOS_PER_SECOND);
        final int erfRecordLength = ERF_HEADER_LENGTH + frameLength;

        record.putInt(PcapFormat.RECORD_TS_SECONDS_OFFSET, (int)seconds, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_TS_NANOS_OFFSET, (int)nanos, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_INCLUDED_LENGTH_OFFSET, erfRecordLength, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_ORIGINAL_LENGTH_OFFSET, erfRecordLength, LITTLE_ENDIAN);

        final long fraction = (nanos << 32) / NANOS_PER_SECOND;
        record.putLong(ERF_OFFSET + ERF_TIMESTAMP_OFFSET, seconds << 32 | fraction, LITTLE_ENDIAN);
        record.putByte(ERF_OFFSET + ERF_TYPE_OFFSET, (byte)ERF_TYPE_INFINIBAND);
        record.putByte(ERF_OFFSET + ERF_FLAGS_OFFSET, (byte)(ERF_FLAG_VARYING_LENGTH | direction.erfInterface()));
        record.putShort(ERF_OFFSET + ERF_RECORD_LENGTH_OFFSET, (short)erfRecordLength, BIG_ENDIAN);
        record.putShort(ERF_OFFSET + ERF_LOSS_COUNTER_OFFSET, (short)0, BIG_ENDIAN);
        record.putShort(ERF_OFFSET + ERF_WIRE_LENGTH_OFFSET, (short)frameLength, BIG_ENDIAN);

        writeRecordBytes(FRAME_OFFSET + frameLength);
    }

    private void writeRecordBytes(final int length) throws IOException
    {
        byteBuffer.clear().limit(length);
        while (byteBuffer.hasRemaining())
        {
            channel.write(byteBuffer);
        }
    }

    private void requireOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("pcap writer is closed");
        }
    }

    /** Closes the channel (and the stream behind it), which flushes what was written; a second call does nothing. */
    @Override
    public synchronized void close() throws IOException
    {
        if (closed)
        {
            return;
        }
        closed = true;
        channel.close();
    }
}

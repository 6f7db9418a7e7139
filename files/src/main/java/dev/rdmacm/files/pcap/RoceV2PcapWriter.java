package dev.rdmacm.files.pcap;

import dev.rdmacm.protocol.capture.RoceV2MadFrame;
import dev.rdmacm.protocol.capture.PcapFormat;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writes MADs as RoCE v2 Ethernet frames ({@link RoceV2MadFrame}) into a classic pcap file, the format
 * and link type {@code dumpcap -P} writes on a RoCE netdev, so that tshark decodes a capture of ours and
 * one of the wire alike (Ethernet, IP, UDP 4791, InfiniBand BTH, DETH and the MAD).
 * <pre>
 *  file:    pcap header (24) | record | record | ...
 *  record:  pcap record header (16) | frame (322 over IPv4, 342 over IPv6)
 *
 *  pcap header, little-endian:  magic a1b2c3d4 (microsecond timestamps), version 2.4, thiszone 0,
 *                               sigfigs 0, snaplen 65535, network 1 (Ethernet)
 *  pcap record, little-endian:  ts_sec | ts_usec | incl_len | orig_len  (both lengths the frame's)
 * </pre>
 * Why not {@link ErfPcapWriter}: its ERF InfiniBand records begin with an LRH, which a RoCE packet does
 * not have; a RoCE MAD there would need LIDs that do not exist and an ICRC over a packet that never was.
 * <p>
 * One reused buffer, no allocation per packet. The writer owns the channel and closes it. Calls are
 * serialised, so several CM threads may share one writer.
 */
public final class RoceV2PcapWriter implements Closeable
{

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MICRO = 1_000L;
    private static final int FRAME_OFFSET = PcapFormat.RECORD_HEADER_LENGTH;

    private final WritableByteChannel channel;
    private final ByteBuffer byteBuffer = ByteBuffer.allocateDirect(FRAME_OFFSET + RoceV2MadFrame.IPV6_FRAME_LENGTH);
    private final UnsafeBuffer record = new UnsafeBuffer(byteBuffer);
    private final RoceV2MadFrame frame = new RoceV2MadFrame();
    private boolean closed;

    /** Starts a capture on {@code channel}, writing the pcap header; the channel is closed if that fails. */
    public RoceV2PcapWriter(final WritableByteChannel channel) throws IOException
    {
        this.channel = channel;
        PcapFormat.putFileHeader(record, PcapFormat.PCAP_MAGIC_MICROSECONDS, PcapFormat.LINKTYPE_ETHERNET);
        try
        {
            writeBytes(PcapFormat.PCAP_HEADER_LENGTH);
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

    /**
     * Records one MAD as the UD SEND Only from {@code sourceQp} at {@code source} to {@code destinationQp}
     * at {@code destination}, over IPv4 when both GIDs are IPv4-mapped and over IPv6 otherwise.
     *
     * @param mad            {@code length} bytes from {@code offset}, at most 256; a shorter MAD is padded
     *                       with zeros (tshark decodes a MAD only when all 256 bytes are there).
     * @param pkey           BTH P_Key, full-member bit included.
     * @param qkey           DETH Q_Key, e.g. {@link dev.rdmacm.protocol.mad.Gsi#QKEY}.
     * @param trafficClass   the GRH's traffic class (IPv4 TOS).
     * @param hopLimit       the GRH's hop limit (IPv4 TTL).
     * @param flowLabel      the GRH's flow label (IPv6 only).
     * @param timestampNanos when, in nanoseconds since the epoch (written to the microsecond).
     * @throws IllegalArgumentException when {@code length} is outside 0..256.
     * @throws IllegalStateException    after {@link #close()}.
     */
    public synchronized void write(
        final Gid source,
        final Gid destination,
        final int sourceQp,
        final int destinationQp,
        final int pkey,
        final long qkey,
        final int trafficClass,
        final int hopLimit,
        final int flowLabel,
        final DirectBuffer mad,
        final int offset,
        final int length,
        final long timestampNanos) throws IOException
    {
        if (closed)
        {
            throw new IllegalStateException("pcap writer is closed");
        }
        if (length < 0 || length > MadHeader.MAD_SIZE)
        {
            throw new IllegalArgumentException("MAD length " + length + " is outside 0.." + MadHeader.MAD_SIZE);
        }
        frame.wrapForFraming(record, FRAME_OFFSET, !RoceV2MadFrame.fitsIpv4(source, destination))
            .addresses(source, destination)
            .trafficClass(trafficClass)
            .hopLimit(hopLimit)
            .flowLabel(flowLabel);
        frame.bth().pkey(pkey).destQp(destinationQp);
        frame.deth().qkey(qkey).sourceQp(sourceQp);
        record.putBytes(FRAME_OFFSET + frame.madOffset(), mad, offset, length);
        frame.finish();

        final int frameLength = frame.frameLength();
        final long seconds = Math.floorDiv(timestampNanos, NANOS_PER_SECOND);
        final long micros = Math.floorMod(timestampNanos, NANOS_PER_SECOND) / NANOS_PER_MICRO;
        record.putInt(PcapFormat.RECORD_TS_SECONDS_OFFSET, (int)seconds, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_TS_NANOS_OFFSET, (int)micros, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_INCLUDED_LENGTH_OFFSET, frameLength, LITTLE_ENDIAN);
        record.putInt(PcapFormat.RECORD_ORIGINAL_LENGTH_OFFSET, frameLength, LITTLE_ENDIAN);
        writeBytes(FRAME_OFFSET + frameLength);
    }

    private void writeBytes(final int length) throws IOException
    {
        byteBuffer.clear().limit(length);
        while (byteBuffer.hasRemaining())
        {
            channel.write(byteBuffer);
        }
    }

    /** Closes the channel, which completes the file; a second call does nothing. */
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

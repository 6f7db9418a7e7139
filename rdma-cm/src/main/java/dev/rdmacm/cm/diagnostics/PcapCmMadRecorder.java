package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.files.pcap.CaptureFile;
import dev.rdmacm.files.pcap.RoceV2PcapWriter;
import dev.rdmacm.protocol.mad.Gsi;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * Writes every CM MAD a port's CM sends or receives into a pcap of RoCE v2 frames
 * ({@link RoceV2PcapWriter}), the format {@code dumpcap} gives on the wire, so tshark decodes ours and
 * the wire's alike and the two can be merged and compared. The IP addresses are the GRH's GIDs; the
 * P_Key is the default one (RoCE has no other), the Q_Key the GSI's.
 * <p>
 * One thing differs from the wire, by the kernel's doing: umad ({@code ib_umad_write}) overwrites the
 * high 32 bits of the TransactionID of every MAD sent that is not a response with its agent's
 * {@code hi_tid}, which it tells no one. A sent MAD is recorded as the CM wrote it, with those bits 0.
 * <p>
 * A write error stops the recording (counted in {@link #failures()}); it never fails the CM. Every
 * record goes straight to the file, so what was written before a crash is there; {@link #close()}
 * closes the file.
 */
public final class PcapCmMadRecorder implements CmMadRecorder, AutoCloseable
{
    private final CaptureFile<RoceV2PcapWriter> capture;

    private PcapCmMadRecorder(final CaptureFile<RoceV2PcapWriter> capture)
    {
        this.capture = capture;
    }

    /**
     * Creates (or truncates) {@code file} and writes the pcap header.
     *
     * @param file the pcap file.
     * @return the recorder; close it to close the file.
     * @throws java.io.UncheckedIOException naming the file when it cannot be written.
     */
    public static PcapCmMadRecorder create(final Path file)
    {
        return new PcapCmMadRecorder(CaptureFile.create(file, "CM MAD capture", RoceV2PcapWriter::new));
    }

    @Override
    public void onMad(final CmMadFilter.Direction direction, final Gid source, final Gid destination, final int sourceQp,
        final int destinationQp, final int trafficClass, final int hopLimit, final int flowLabel, final DirectBuffer mad,
        final int offset, final int length)
    {
        capture.record((writer, epochNanos) -> writer.write(source, destination, sourceQp, destinationQp, PKey.DEFAULT,
            Gsi.QKEY, trafficClass, hopLimit, flowLabel, mad, offset, length, epochNanos));
    }

    /** {@return the MADs written so far} */
    public long written()
    {
        return capture.written();
    }

    /** {@return the write errors; after the first one nothing more is written} */
    public long failures()
    {
        return capture.failures();
    }

    /** {@return the pcap file this recorder writes} */
    public Path file()
    {
        return capture.file();
    }

    @Override
    public void close()
    {
        capture.close();
    }
}

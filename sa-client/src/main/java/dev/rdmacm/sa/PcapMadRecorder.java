package dev.rdmacm.sa;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.files.pcap.CaptureFile;
import dev.rdmacm.files.pcap.ErfPcapWriter;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * Records every MAD the engine sends or receives into a pcap file (ERF framing, which tshark and
 * Wireshark decode as InfiniBand) through cm-protocol's {@link ErfPcapWriter}. Each MAD becomes a UD
 * packet between our port's LID on QP1 and the peer's LID and QP, on the default P_Key with the GSI
 * Q_Key. A write error stops the recording (counted in {@link #failures()}); it never fails a query.
 */
public final class PcapMadRecorder implements MadRecorder, AutoCloseable
{
    private final CaptureFile<ErfPcapWriter> capture;

    private PcapMadRecorder(final CaptureFile<ErfPcapWriter> capture)
    {
        this.capture = capture;
    }

    /**
     * Creates (or truncates) {@code file} and writes the pcap header.
     *
     * @throws java.io.UncheckedIOException naming the file when it cannot be written.
     */
    public static PcapMadRecorder create(final Path file)
    {
        return new PcapMadRecorder(CaptureFile.create(file, "MAD capture", ErfPcapWriter::new));
    }

    @Override
    public void onMad(final boolean sent, final int localLid, final int remoteLid, final int remoteQp,
        final DirectBuffer buffer, final int offset, final int length)
    {
        capture.record((writer, epochNanos) -> writer.write(sent ? CaptureDirection.SENT : CaptureDirection.RECEIVED,
            buffer, offset, Math.min(length, MadHeader.MAD_SIZE), sent ? localLid : remoteLid, sent ? remoteLid : localLid,
            sent ? Gsi.QPN : remoteQp, sent ? remoteQp : Gsi.QPN, PKey.DEFAULT, Gsi.QKEY, epochNanos));
    }

    /** MADs written so far. */
    public long written()
    {
        return capture.written();
    }

    /** Write errors; after the first one nothing more is written. */
    public long failures()
    {
        return capture.failures();
    }

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

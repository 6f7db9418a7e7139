package dev.rdmacm.sa;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.files.pcap.ErfPcapWriter;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Records every MAD the engine sends or receives into a pcap file (ERF framing, which tshark and
 * Wireshark decode as InfiniBand) through cm-protocol's {@link ErfPcapWriter}. Each MAD becomes a UD
 * packet between our port's LID on QP1 and the peer's LID and QP, on the default P_Key with the GSI
 * Q_Key. A write error stops the recording (counted in {@link #failures()}); it never fails a query.
 */
public final class PcapMadRecorder implements MadRecorder, AutoCloseable
{
    private final ErfPcapWriter writer;
    private final Path file;
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;
    private volatile long written;
    private volatile long failures;

    private PcapMadRecorder(final ErfPcapWriter writer, final Path file)
    {
        this.writer = writer;
        this.file = file;
        this.epochNanosAtStart = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        this.nanoTimeAtStart = System.nanoTime();
    }

    /** Creates (or truncates) {@code file} and writes the pcap header. */
    public static PcapMadRecorder create(final Path file)
    {
        try
        {
            final FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            try
            {
                return new PcapMadRecorder(new ErfPcapWriter(channel), file);
            }
            catch (final IOException | RuntimeException ex)
            {
                channel.close();
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write a MAD capture to " + file + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public void onMad(final boolean sent, final int localLid, final int remoteLid, final int remoteQp,
        final DirectBuffer buffer, final int offset, final int length)
    {
        if (failures != 0)
        {
            return;
        }
        final long timestamp = epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart);
        try
        {
            writer.write(sent ? CaptureDirection.SENT : CaptureDirection.RECEIVED, buffer, offset,
                Math.min(length, MadHeader.MAD_SIZE), sent ? localLid : remoteLid, sent ? remoteLid : localLid,
                sent ? Gsi.QPN : remoteQp, sent ? remoteQp : Gsi.QPN, PKey.DEFAULT, Gsi.QKEY,
                timestamp);
            written++;
        }
        catch (final IOException | RuntimeException ex)
        {
            failures++;
        }
    }

    /** MADs written so far. */
    public long written()
    {
        return written;
    }

    /** Write errors; after the first one nothing more is written. */
    public long failures()
    {
        return failures;
    }

    public Path file()
    {
        return file;
    }

    @Override
    public void close()
    {
        try
        {
            writer.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish the MAD capture " + file + ": " + ex.getMessage(), ex);
        }
    }
}

package dev.rdmacm.files.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * A capture being written to a file by one of the pcap writers: what every MAD recorder needs whatever
 * its framing. The file is created (or truncated) with its header; each record is stamped with the wall
 * clock, read once at the start and advanced by {@code System.nanoTime}, so records are ordered as they
 * were made whatever the wall clock does meanwhile. A write error stops the capture and is counted
 * ({@link #failures()}): it never fails what is being recorded.
 *
 * @param <W> the writer: {@link ErfPcapWriter} or {@link RoceV2PcapWriter}.
 */
public final class CaptureFile<W extends Closeable>
{
    /** Makes the writer over the opened file; it writes the pcap header. */
    @FunctionalInterface
    public interface WriterFactory<W>
    {
        W open(WritableByteChannel channel) throws IOException;
    }

    /** One record, written with its timestamp in nanoseconds since the epoch. */
    @FunctionalInterface
    public interface Record<W>
    {
        void writeTo(W writer, long epochNanos) throws IOException;
    }

    private final W writer;
    private final Path file;
    private final String what;
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;
    private volatile long written;
    private volatile long failures;

    private CaptureFile(final W writer, final Path file, final String what)
    {
        this.writer = writer;
        this.file = file;
        this.what = what;
        this.epochNanosAtStart = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        this.nanoTimeAtStart = System.nanoTime();
    }

    /**
     * Creates (or truncates) {@code file} and has {@code factory} write the header.
     *
     * @param what names the capture in errors, e.g. "CM MAD capture".
     * @throws UncheckedIOException naming the capture and the file when it cannot be written.
     */
    public static <W extends Closeable> CaptureFile<W> create(final Path file, final String what,
        final WriterFactory<W> factory)
    {
        try
        {
            final FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            try
            {
                return new CaptureFile<>(factory.open(channel), file, what);
            }
            catch (final IOException | RuntimeException ex)
            {
                channel.close();
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write a " + what + " to " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** Writes {@code record} unless an earlier write failed; a failure is counted, never thrown. One at a time. */
    public synchronized void record(final Record<W> record)
    {
        if (failures != 0)
        {
            return;
        }
        try
        {
            record.writeTo(writer, epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart));
            written++;
        }
        catch (final IOException | RuntimeException ex)
        {
            failures++;
        }
    }

    /** Records written so far. */
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

    /**
     * Closes the file.
     *
     * @throws UncheckedIOException naming the capture and the file when the last bytes cannot be written.
     */
    public void close()
    {
        try
        {
            writer.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish the " + what + " " + file + ": " + ex.getMessage(), ex);
        }
    }
}

package dev.rdmacm.conformance;

import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * {@code System.out} or {@code System.err} of {@link GuestMainDriver}'s JVM, where several mains run at once:
 * each byte goes to the stream of the main whose thread wrote it. The main's thread holds its streams in an
 * inheritable thread local, so the threads it starts (its event and conductor threads) write to them too; a
 * thread that belongs to no main (one of the JVM's own pools) writes to the driver's own stream.
 */
final class ThreadRoutedOutput extends OutputStream
{
    private final InheritableThreadLocal<GuestMainDriver.Streams> current;
    private final Function<GuestMainDriver.Streams, OutputStream> which;
    private final OutputStream fallback;

    ThreadRoutedOutput(final InheritableThreadLocal<GuestMainDriver.Streams> current,
        final Function<GuestMainDriver.Streams, OutputStream> which, final OutputStream fallback)
    {
        this.current = current;
        this.which = which;
        this.fallback = fallback;
    }

    @Override
    public void write(final int b) throws IOException
    {
        target().write(b);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException
    {
        target().write(b, off, len);
    }

    @Override
    public void flush() throws IOException
    {
        target().flush();
    }

    private OutputStream target()
    {
        final GuestMainDriver.Streams streams = current.get();
        return streams == null ? fallback : which.apply(streams);
    }
}

package dev.rdmacm.libc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A sysctl that holds one integer, read on every call as the kernel reads it (the value is live:
 * procfs answers each read at offset 0 afresh), but through a descriptor opened once: one
 * {@code pread} per read instead of open, fstat, read and close, and no allocation. The descriptor
 * keeps the network namespace of the thread that opened it, as /proc/sys/net does for a path.
 */
public final class SysctlFile implements AutoCloseable
{
    private static final int MAX_LENGTH = 32;

    private final Path path;
    private final ByteBuffer bytes = ByteBuffer.allocateDirect(MAX_LENGTH);
    private FileChannel channel;

    public SysctlFile(final Path path)
    {
        this.path = path;
    }

    /**
     * The file's first integer, now. Opens the file on first use, and again once after a failed read
     * (a device's directory that went away and came back).
     *
     * @throws IOException when it cannot be opened or read, or holds no decimal integer first.
     */
    public int readInt() throws IOException
    {
        if (channel == null)
        {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        bytes.clear();
        try
        {
            channel.read(bytes, 0);
        }
        catch (final IOException ex)
        {
            close();
            throw ex;
        }
        return parse();
    }

    /**
     * {@return whether the descriptor is open} A reader on another thread, which may be in another
     * network namespace, reads only a descriptor its owner opened.
     */
    public boolean isOpen()
    {
        return channel != null;
    }

    private int parse() throws IOException
    {
        final int length = bytes.position();
        int i = 0;
        final boolean negative = length > 0 && bytes.get(0) == '-';
        if (negative)
        {
            i++;
        }
        long value = 0;
        final int first = i;
        for (; i < length && bytes.get(i) >= '0' && bytes.get(i) <= '9' && value <= Integer.MAX_VALUE; i++)
        {
            value = value * 10 + (bytes.get(i) - '0');
        }
        if (i == first || value > Integer.MAX_VALUE || (i < length && !Character.isWhitespace(bytes.get(i))))
        {
            throw new IOException(path + ": not a decimal integer");
        }
        return (int)(negative ? -value : value);
    }

    @Override
    public void close()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // a read-only procfs descriptor has nothing to flush
            }
            channel = null;
        }
    }
}

package dev.rdmacm.libc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A sysctl that holds one integer, read on every call as the kernel reads it (the value is live:
 * procfs answers each read at offset 0 afresh, and nothing notifies a change), but through a
 * descriptor opened once: one {@code pread(2)} per read instead of open, fstat, read and close, and no
 * allocation. The read is libc's, not a {@code FileChannel}'s: the channel's interruptible-I/O
 * bookkeeping around the same {@code pread} was most of the hop limit's cost in a resolution (14% of
 * resolve addr's samples in the guest's cmtime, issue 32). The descriptor keeps the network namespace
 * of the thread that opened it, as /proc/sys/net does for a path. Not thread-safe: its users serialise.
 */
public final class SysctlFile implements AutoCloseable
{
    private static final int MAX_LENGTH = 32;

    private final Path path;
    private final String pathText;
    /** The path, the read buffer and the captured errno; freed with this object (it may be opened again after a close). */
    private final MemorySegment cPath;
    private final MemorySegment bytes;
    private final Libc.CallState state;
    private int fd = -1;

    public SysctlFile(final Path path)
    {
        this.path = path;
        this.pathText = path.toString();
        final Arena arena = Arena.ofAuto();
        this.cPath = arena.allocateFrom(pathText);
        this.bytes = arena.allocate(MAX_LENGTH);
        this.state = new Libc.CallState(arena);
    }

    /**
     * The file's first integer, now. Opens the file on first use, and again once after a failed read
     * (a device's directory that went away and came back).
     *
     * @throws IOException when it cannot be opened or read, or holds no decimal integer first.
     */
    public int readInt() throws IOException
    {
        try
        {
            if (fd < 0)
            {
                fd = Libc.open(state, cPath, pathText, Libc.O_RDONLY | Libc.O_CLOEXEC);
            }
            return parse((int)Libc.pread(state, fd, bytes, MAX_LENGTH, 0, pathText));
        }
        catch (final NativeCallException ex)
        {
            close();
            // as FileChannel.open said it: a missing file (a netdev's directory gone) is NoSuchFileException
            throw ex.errno() == Errno.ENOENT ? (IOException)new NoSuchFileException(pathText).initCause(ex) :
                new IOException(ex.getMessage(), ex);
        }
    }

    /**
     * {@return whether the descriptor is open} A reader on another thread, which may be in another
     * network namespace, reads only a descriptor its owner opened.
     */
    public boolean isOpen()
    {
        return fd >= 0;
    }

    private int parse(final int length) throws IOException
    {
        int i = 0;
        final boolean negative = length > 0 && at(0) == '-';
        if (negative)
        {
            i++;
        }
        long value = 0;
        final int first = i;
        for (; i < length && at(i) >= '0' && at(i) <= '9' && value <= Integer.MAX_VALUE; i++)
        {
            value = value * 10 + (at(i) - '0');
        }
        if (i == first || value > Integer.MAX_VALUE || (i < length && !Character.isWhitespace(at(i))))
        {
            throw new IOException(path + ": not a decimal integer");
        }
        return (int)(negative ? -value : value);
    }

    private byte at(final int index)
    {
        return bytes.get(ValueLayout.JAVA_BYTE, index);
    }

    @Override
    public void close()
    {
        if (fd >= 0)
        {
            final int open = fd;
            fd = -1;
            try
            {
                Libc.close(state, open);
            }
            catch (final NativeCallException ignored)
            {
                // a read-only procfs descriptor has nothing to flush; it is gone either way
            }
        }
    }
}

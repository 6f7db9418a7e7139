package dev.rdmacm.acm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One service per run directory, as ibacm makes sure of it: {@code ibacm.pid} opened (created mode 0640)
 * and locked with {@code lockf(F_TLOCK)}, then our pid written into it. ibacm takes the same lock on
 * its {@code lock_file} ({@code /run/ibacm.pid}) before anything else, so neither starts while the
 * other runs, and the file names the holder. The lock lives as long as the descriptor: {@link #close}
 * releases it, and so does the end of the process, however it ends.
 * <p>
 * POSIX locks belong to a process, so a second service in the same JVM would get the lock again and
 * release it when it closed; a set of the paths this JVM holds refuses that too.
 */
final class AcmInstanceLock implements AutoCloseable
{
    private static final Set<Path> HELD_IN_THIS_PROCESS = ConcurrentHashMap.newKeySet();
    private static final int MODE_0640 = 0640;

    private final Path path;
    private final Arena arena;
    private final Libc.CallState state;
    private int fd;

    private AcmInstanceLock(final Path path, final Arena arena, final Libc.CallState state, final int fd)
    {
        this.path = path;
        this.arena = arena;
        this.state = state;
        this.fd = fd;
    }

    /**
     * Creates and locks {@code path}, and writes this process's pid into it.
     *
     * @throws AcmAlreadyRunningException when another process, or another service in this one, holds it.
     * @throws IOException for any other failure, naming the call and its errno.
     */
    static AcmInstanceLock acquire(final Path path) throws IOException
    {
        final Path key = path.toAbsolutePath().normalize();
        if (!HELD_IN_THIS_PROCESS.add(key))
        {
            throw new AcmAlreadyRunningException(path, ProcessHandle.current().pid(), "another acm-server in this process");
        }
        final Arena arena = Arena.ofShared();
        final Libc.CallState state = new Libc.CallState(arena);
        int fd = -1;
        boolean locked = false;
        try
        {
            fd = Libc.openCreate(state, arena.allocateFrom(path.toString()), path.toString(),
                Libc.O_RDWR | Libc.O_CLOEXEC, MODE_0640);
            try
            {
                Libc.lockf(state, fd, Libc.F_TLOCK, 0, path.toString());
            }
            catch (final NativeCallException ex)
            {
                if (ex.errno() == Errno.EACCES || ex.errno() == Errno.EAGAIN)
                {
                    throw new AcmAlreadyRunningException(path, holder(path), "another process holds the lock");
                }
                throw ex;
            }
            final byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            Libc.ftruncate(state, fd, 0, path.toString());
            final MemorySegment text = arena.allocate(pid.length);
            text.copyFrom(MemorySegment.ofArray(pid));
            if (Libc.write(state, fd, text, pid.length, path.toString()) != pid.length)
            {
                throw new IOException("cannot write the pid into " + path + ": short write");
            }
            locked = true;
            return new AcmInstanceLock(key, arena, state, fd);
        }
        catch (final NativeCallException ex)
        {
            throw new IOException("cannot lock " + path + ": " + ex.getMessage(), ex);
        }
        finally
        {
            if (!locked)
            {
                if (fd >= 0)
                {
                    closeQuietly(state, fd);
                }
                arena.close();
                HELD_IN_THIS_PROCESS.remove(key);
            }
        }
    }

    /** The pid the lock file holds, as ibacm and we write it; -1 when it holds none. */
    static long holder(final Path path)
    {
        try
        {
            final byte[] bytes = Files.readAllBytes(path);
            final String text = new String(bytes, 0, Math.min(bytes.length, 32), StandardCharsets.US_ASCII).strip();
            return Long.parseLong(text);
        }
        catch (final IOException | NumberFormatException ex)
        {
            return -1;
        }
    }

    Path path()
    {
        return path;
    }

    private static void closeQuietly(final Libc.CallState state, final int fd)
    {
        try
        {
            Libc.close(state, fd);
        }
        catch (final NativeCallException ignored)
        {
            // the descriptor is gone either way
        }
    }

    /** Releases the lock and closes the file; the file stays, as ibacm leaves its own. Idempotent. */
    @Override
    public synchronized void close()
    {
        if (fd < 0)
        {
            return;
        }
        closeQuietly(state, fd);
        fd = -1;
        arena.close();
        HELD_IN_THIS_PROCESS.remove(path);
    }
}

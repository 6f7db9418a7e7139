package dev.rdmacm.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Moves the calling thread into a network namespace with setns(2), as {@code ip netns exec} does for
 * a process. Only that thread moves (Linux namespaces are per task); every socket it opens afterwards
 * (netlink, UDP) belongs to the namespace and stays there, whichever thread later uses it.
 */
public final class NetworkNamespace
{
    /** Where {@code ip netns add NAME} mounts a namespace. */
    public static final Path RUN_NETNS = Path.of("/run/netns");

    private NetworkNamespace()
    {
    }

    /** The path {@code ip netns} uses for {@code name}, checked to be a plain name. */
    public static Path byName(final String name)
    {
        if (name == null || name.isEmpty() || name.contains("/") || name.equals(".") || name.equals(".."))
        {
            throw new IllegalArgumentException("network namespace name '" + name +
                "' is not valid: expected a name as 'ip netns list' prints it");
        }
        return RUN_NETNS.resolve(name);
    }

    /**
     * Enters the namespace at {@code path} (e.g. /run/netns/NAME or /proc/PID/ns/net) on the calling
     * platform thread. Needs CAP_SYS_ADMIN.
     */
    public static void enter(final Path path) throws NativeCallException
    {
        if (Thread.currentThread().isVirtual())
        {
            throw new IllegalStateException("setns needs a platform thread: a virtual thread may change carrier");
        }
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final MemorySegment cPath = arena.allocateFrom(path.toString());
            final int fd = Libc.open(state, cPath, path.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
            try
            {
                Libc.setns(state, fd, Libc.CLONE_NEWNET, path.toString());
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }
}

package dev.rdmacm.libc.testing;

import dev.rdmacm.libc.NetworkNamespace;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Runs a task on a thread of its own whose real and effective user ids are another user's, while the
 * rest of the JVM stays root: Linux credentials belong to threads, and the raw setresuid(2) system
 * call changes only the caller's (glibc's wrapper would change every thread). The saved id stays 0,
 * and the thread ends with the task. The kernel routes a caller's RTM_GETROUTE with the caller's real
 * uid unless the request names one, so a root test sees what a non-root process meets.
 */
public final class AsUser
{
    private static final MethodHandle SYSCALL;
    private static final long SYS_SETRESUID = switch (System.getProperty("os.arch"))
    {
        case "amd64", "x86_64" -> 117;
        case "aarch64" -> 147;
        default -> throw new ExceptionInInitializerError("setresuid's number on " + System.getProperty("os.arch"));
    };

    static
    {
        final Linker linker = Linker.nativeLinker();
        SYSCALL = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    }

    private AsUser()
    {
    }

    /** Runs {@code task} on a new thread in {@code namespace} (null: the caller's) as user {@code uid}. */
    public static <T> T call(final Path namespace, final int uid, final Callable<T> task) throws Exception
    {
        return ThreadOfItsOwn.call("as-user-" + uid, () ->
        {
            if (namespace != null)
            {
                NetworkNamespace.enter(namespace);
            }
            if ((long)SYSCALL.invokeExact(SYS_SETRESUID, (long)uid, (long)uid, 0L) != 0)
            {
                throw new IllegalStateException("setresuid(" + uid + ", " + uid + ", 0) failed");
            }
        }, task);
    }
}

package dev.rdmacm.libc.testing;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.Callable;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Runs a task on a thread of its own that lacks one capability, while the rest of the JVM keeps it:
 * Linux credentials belong to threads, and capset(2) with pid 0 changes only the caller's. The
 * capability leaves the effective set only, and the thread ends with the task, so nothing is left
 * behind. A root test can so see what the kernel does to an unprivileged caller without starting a
 * second JVM (seconds under TCG).
 */
public final class WithoutCapability
{
    private static final int LINUX_CAPABILITY_VERSION_3 = 0x2008_0522;
    /** {@code struct __user_cap_data_struct}: effective, permitted, inheritable; two of them in version 3. */
    private static final int DATA_WORDS = 3;
    private static final MethodHandle CAPGET;
    private static final MethodHandle CAPSET;

    static
    {
        final Linker linker = Linker.nativeLinker();
        final FunctionDescriptor call = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
        CAPGET = linker.downcallHandle(linker.defaultLookup().find("capget").orElseThrow(), call);
        CAPSET = linker.downcallHandle(linker.defaultLookup().find("capset").orElseThrow(), call);
    }

    private WithoutCapability()
    {
    }

    /** Runs {@code task} on a new thread without {@code capability} (e.g. {@code ProcessCapabilities.CAP_NET_RAW}). */
    public static <T> T call(final int capability, final Callable<T> task) throws Exception
    {
        return ThreadOfItsOwn.call("without-capability-" + capability, () -> dropEffective(capability), task);
    }

    private static void dropEffective(final int capability) throws Throwable
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment header = arena.allocate(JAVA_INT, 2);
            header.setAtIndex(JAVA_INT, 0, LINUX_CAPABILITY_VERSION_3);
            header.setAtIndex(JAVA_INT, 1, 0);
            final MemorySegment data = arena.allocate(JAVA_INT, 2 * DATA_WORDS);
            if ((int)CAPGET.invokeExact(header, data) != 0)
            {
                throw new IllegalStateException("capget failed");
            }
            final int word = (capability / 32) * DATA_WORDS;
            data.setAtIndex(JAVA_INT, word, data.getAtIndex(JAVA_INT, word) & ~(1 << (capability % 32)));
            if ((int)CAPSET.invokeExact(header, data) != 0)
            {
                throw new IllegalStateException("capset failed");
            }
        }
    }
}

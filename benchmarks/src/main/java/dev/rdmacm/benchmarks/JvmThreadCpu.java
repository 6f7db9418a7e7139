package dev.rdmacm.benchmarks;

import dev.rdmacm.libc.ProcFile;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM's CPU split by who spent it, from {@code /proc/self/task/<tid>/stat} (proc(5)): the JIT's
 * compiler threads, the garbage collector's, and every other thread (the application's, the VM's).
 * HotSpot names its threads, and the kernel keeps the first 15 bytes as {@code comm}: "C2 CompilerThre",
 * "C1 CompilerThre", "GC Thread#0", "G1 Conc#0", "G1 Refine#0", "G1 Service". A thread that ends
 * takes its CPU with it, so run with {@code -XX:-UseDynamicNumberOfCompilerThreads} for deltas.
 */
record JvmThreadCpu(long jitNanos, long gcNanos, long otherNanos)
{
    static JvmThreadCpu now()
    {
        long jit = 0;
        long gc = 0;
        long other = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks)
            {
                final String stat;
                try
                {
                    stat = ProcFile.read(task.resolve("stat"));
                }
                catch (final IOException ended)
                {
                    continue;
                }
                final String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                final long nanos = ProcessCpu.parse(stat).ownNanos();
                if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler"))
                {
                    jit += nanos;
                }
                else if (comm.startsWith("GC Thread") || comm.startsWith("G1 "))
                {
                    gc += nanos;
                }
                else
                {
                    other += nanos;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot list /proc/self/task: " + ex.getMessage(), ex);
        }
        return new JvmThreadCpu(jit, gc, other);
    }

    JvmThreadCpu minus(final JvmThreadCpu before)
    {
        return new JvmThreadCpu(jitNanos - before.jitNanos, gcNanos - before.gcNanos, otherNanos - before.otherNanos);
    }
}

package dev.rdmacm.cm;

import java.util.TreeSet;

/**
 * The names of this JVM's threads that an {@link RdmaCm} starts (the conductor, the ports' CM threads, the
 * descriptors' waiters: every one named {@code rdmacm...}), to compare before an {@code RdmaCm} opens and after
 * it closed: close ends them all.
 */
final class CmThreads
{
    private CmThreads()
    {
    }

    static TreeSet<String> now()
    {
        final TreeSet<String> names = new TreeSet<>();
        Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(name -> name.startsWith("rdmacm")).forEach(names::add);
        return names;
    }
}

package dev.rdmacm.cm.diagnostics;

/**
 * Told of each {@link KernelDifference}, on the conductor's thread, under no lock; it must not block
 * ({@link dev.rdmacm.cm.RdmaCm.Options#kernelDifferences()}).
 */
@FunctionalInterface
public interface KernelDifferenceListener
{
    /** Told nothing: the default. */
    KernelDifferenceListener NONE = difference -> { };

    /**
     * The kernel's CM answered an id otherwise than this stack.
     *
     * @param difference the field and both values.
     */
    void onDifference(KernelDifference difference);
}

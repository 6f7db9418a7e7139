package dev.rdmacm.cm;

/**
 * Who may touch one id's {@link IdContext} now: the id's monitor, in the shape of Aeron's client lock
 * (the state belongs to whoever holds the lock), for the calls a caller finishes itself, as the kernel
 * finishes them inside the caller's write ({@link #runOnCaller(RdmaCm, RdmaCmId, WhenQueued, Object, CallerCall)}:
 * {@link CallerResolution}, {@link CallerRoute}, {@link CallerDestroy}, {@link CallerQpHandOver}, {@link CallerKernelCm}).
 * <ul>
 *   <li>The conductor holds it while it works on the id: every command that names the id, and the work
 *       no command brings (a neighbour's event, a deadline, a device removal, a bond's failover). It
 *       never waits for it but behind a caller's few field writes, a port bind and an event post.</li>
 *   <li>A caller holds it while it runs the conductor's code on the id's context; with every command
 *       the caller's thread sent already run ({@link ThreadCommands}), the context is the one its
 *       earlier calls left, and a command queued from now on runs after what the caller does.</li>
 * </ul>
 */
final class IdGuard
{
    /** What a caller does when a command its thread sent has not run yet. */
    enum WhenQueued
    {
        /** Leaves the call to the conductor at once (it keeps its place behind the command). */
        GIVE_UP,
        /** Spins for the commands up to the {@link RdmaCm}'s spin ({@link RdmaCm.Options#spin}), as a synchronous call spins for its reply. */
        SPIN
    }

    /**
     * One of the conductor's calls on the id's context, made by a caller under the guard.
     *
     * The call's own value comes as {@code argument}, not captured, so that a hot call (a QP's hand-over)
     * allocates no closure.
     *
     * @param <A> the call's argument.
     * @param <X> what it throws ({@link RdmaCmException} as the conductor's code throws it, or nothing checked).
     */
    @FunctionalInterface
    interface CallerCall<A, X extends Exception>
    {
        /** @return true when the call was made; false to leave it to the conductor, with nothing done. */
        boolean run(IdContext c, A argument) throws X;
    }

    /** The id's context once the conductor or a caller made it; written under the monitor. */
    private volatile IdContext context;

    /** The id's context, or null while neither the conductor nor a caller has made it. */
    IdContext context()
    {
        return context;
    }

    /** Under the monitor: the context made for the id. */
    void context(final IdContext made)
    {
        context = made;
    }

    /**
     * Runs {@code call} with {@code argument} on the caller's thread, holding {@code id}'s guard, on the id's
     * context, when the conductor is needed for nothing that orders it: the caller is not the loop's thread,
     * every command its thread sent has run (spun for, or not, as {@code whenQueued} says), and a command or a
     * caller made the id's context. What each call needs besides is its own to check.
     *
     * @return false when the conductor must make the call (nothing was done), as {@code call} says or for one
     *         of the above.
     * @throws X as {@code call} throws it.
     */
    static <A, X extends Exception> boolean runOnCaller(final RdmaCm cm, final RdmaCmId id, final WhenQueued whenQueued,
        final A argument, final CallerCall<A, X> call) throws X
    {
        return runOnCaller(cm, id, whenQueued, false, argument, call);
    }

    /**
     * As {@link #runOnCaller(RdmaCm, RdmaCmId, WhenQueued, Object, CallerCall)}, and on an id whose context
     * nothing made yet too: {@code call} then gets a new one, in IDLE, which is the id's only once {@code call} sets it
     * ({@link #context(IdContext)}), and a {@link #context()} still null tells it so.
     */
    static <A, X extends Exception> boolean runOnCallerMakingContext(final RdmaCm cm, final RdmaCmId id,
        final WhenQueued whenQueued, final A argument, final CallerCall<A, X> call) throws X
    {
        return runOnCaller(cm, id, whenQueued, true, argument, call);
    }

    private static <A, X extends Exception> boolean runOnCaller(final RdmaCm cm, final RdmaCmId id,
        final WhenQueued whenQueued, final boolean makeContext, final A argument, final CallerCall<A, X> call) throws X
    {
        if (cm.onLoopThread() || !allRan(cm, whenQueued))
        {
            return false;
        }
        final IdGuard guard = id.guard;
        synchronized (guard)
        {
            IdContext c = guard.context;
            if (c == null)
            {
                if (!makeContext)
                {
                    return false;
                }
                c = new IdContext(id, cm, id.portSpace());
            }
            return call.run(c, argument);
        }
    }

    private static boolean allRan(final RdmaCm cm, final WhenQueued whenQueued)
    {
        final ThreadCommands commands = ThreadCommands.ofThisThread();
        return whenQueued == WhenQueued.GIVE_UP ? commands.allRan() : commands.awaitAllRan(cm.spinNanos(), cm::wakeUp);
    }
}

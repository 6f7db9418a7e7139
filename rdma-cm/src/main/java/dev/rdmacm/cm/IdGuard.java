package dev.rdmacm.cm;

/**
 * Who may touch one id's {@link IdContext} now: the id's monitor, in the shape of Aeron's client lock
 * (the state belongs to whoever holds the lock), for the one case that needs it, a resolution that
 * needs no waiting, which the caller finishes itself, as the kernel finishes it inside the caller's
 * write ({@link CallerResolution}).
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
}

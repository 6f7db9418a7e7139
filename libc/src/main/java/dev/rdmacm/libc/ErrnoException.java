package dev.rdmacm.libc;

/**
 * The one supertype of every failure that carries a Linux errno, whichever layer reports it: a libc
 * call ({@link NativeCallException}), a netlink request, a libibverbs call, an SA query, a ServiceRecord
 * lookup, an RDMA CM call or event. A caller that only needs the errno, as librdmacm's callers only have
 * {@code errno}, catches this one type; a caller that needs more catches the subtype, which adds what
 * its layer knows (the call, the kernel's extended ack, the SA status, the resolution trace).
 * <p>
 * <b>Unchecked, decided once for all of them.</b> These failures travel mostly where checked exceptions
 * cannot: through {@link java.util.concurrent.CompletableFuture}s completed on an event-loop thread,
 * through commands submitted to a loop as lambdas, and as the status of a CM event. A checked type
 * would be wrapped there anyway ({@code CompletionException}, {@code ExecutionException}), so the
 * compiler would check only the synchronous half of the API. libibverbs and SA failures were already
 * unchecked; the JDK's newer native and asynchronous APIs (FFM, {@code java.net.http}) take the same
 * line. What the compiler no longer enforces the Javadoc says: every public method that can fail with
 * an errno names its subtype in {@code throws} and {@code @throws}.
 */
public abstract class ErrnoException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    /** A failure with a stack trace (an API call that failed). */
    protected ErrnoException(final String message, final int errno)
    {
        super(message);
        this.errno = errno;
    }

    /** A failure with a cause (a lower layer's failure re-reported by this one). */
    protected ErrnoException(final String message, final int errno, final Throwable cause)
    {
        super(message, cause);
        this.errno = errno;
    }

    /**
     * A failure that is an expected outcome on a hot path (an SA timeout, a route that does not exist):
     * no stack trace, which the message replaces.
     */
    protected ErrnoException(final String message, final int errno, final boolean withStackTrace)
    {
        super(message, null, false, withStackTrace);
        this.errno = errno;
    }

    /** The positive errno, e.g. {@link Errno#ETIMEDOUT}; 0 when the failed call set none. */
    public final int errno()
    {
        return errno;
    }

    /** The symbolic name, e.g. {@code ETIMEDOUT}; {@code none} for errno 0. */
    public final String errnoName()
    {
        return errno == 0 ? "none" : Errno.name(errno);
    }
}

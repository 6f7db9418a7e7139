package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;

/**
 * The one exception this module throws for a failed native call: it names the libibverbs (or libc)
 * call, the errno number and its symbolic name, and what was being done, e.g.
 * {@code ibv_modify_qp(INIT) failed: errno 1 EPERM (Operation not permitted): ...}.
 * <p>
 * A call that fails without setting errno (libibverbs does this for some NULL returns) carries
 * errno 0 and says so.
 */
public final class VerbsException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;
    private final String detail;

    public VerbsException(final String call, final int errno, final String detail)
    {
        super(message(call, errno, detail));
        this.call = call;
        this.errno = errno;
        this.detail = detail == null ? "" : detail;
    }

    /** The native call that failed, e.g. {@code ibv_open_device}. */
    public String call()
    {
        return call;
    }

    /** The errno the call reported, 0 when it reported none. */
    public int errno()
    {
        return errno;
    }

    /** What was being done, e.g. {@code UD QP 17 on rxe0 RESET -> INIT}; empty when nothing was said. */
    public String detail()
    {
        return detail;
    }

    /** The symbolic errno name, e.g. {@code ENOSYS}. */
    public String errnoName()
    {
        return errno == 0 ? "none" : Errno.name(errno);
    }

    private static String message(final String call, final int errno, final String detail)
    {
        final String reason = errno == 0 ? "no errno set" : "errno " + errno + " " + Errno.name(errno);
        return call + " failed: " + reason + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }
}

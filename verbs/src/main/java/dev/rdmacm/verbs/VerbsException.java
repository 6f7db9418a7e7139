package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;

/**
 * The one exception this module throws for a failed native call: it names the libibverbs (or libc)
 * call, the errno number and its symbolic name, and what was being done, e.g.
 * {@code ibv_modify_qp(INIT) failed: errno 1 EPERM (Operation not permitted): ...}.
 * <p>
 * A call that fails without setting errno (libibverbs does this for some NULL returns) carries
 * errno 0 and says so.
 */
public final class VerbsException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final String detail;

    public VerbsException(final String call, final int errno, final String detail)
    {
        super(message(call, errno, detail), errno);
        this.call = call;
        this.detail = detail == null ? "" : detail;
    }

    /** The native call that failed, e.g. {@code ibv_open_device}. */
    public String call()
    {
        return call;
    }

    /** What was being done, e.g. {@code UD QP 17 on rxe0 RESET -> INIT}; empty when nothing was said. */
    public String detail()
    {
        return detail;
    }

    private static String message(final String call, final int errno, final String detail)
    {
        final String reason = errno == 0 ? "no errno set" : "errno " + errno + " " + Errno.name(errno);
        return call + " failed: " + reason + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;

/** A route could not be resolved: the errno the kernel would report and what failed. */
final class RouteException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    public RouteException(final int errno, final String detail)
    {
        super(Errno.name(errno) + ": " + detail, null, false, false);
        this.errno = errno;
    }

    /** The positive errno, e.g. {@link Errno#ETIMEDOUT}. */
    public int errno()
    {
        return errno;
    }
}

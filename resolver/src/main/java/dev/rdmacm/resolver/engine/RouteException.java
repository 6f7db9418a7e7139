package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;

/** A route could not be resolved: the errno the kernel would report and what failed. */
public final class RouteException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    RouteException(final int errno, final String detail)
    {
        super(Errno.name(errno) + ": " + detail, errno, false);
    }
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;

/** A ServiceRecord lookup that failed, with the errno ({@link Errno}'s values) {@code rdma_getaddrinfo} reports for it. */
public final class ServiceRecordLookupException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    public ServiceRecordLookupException(final int errno, final String message)
    {
        super(message, errno);
    }
}

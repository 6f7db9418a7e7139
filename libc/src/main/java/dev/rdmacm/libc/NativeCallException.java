package dev.rdmacm.libc;


import java.io.IOException;

/**
 * A libc call failed: names the call, the errno number and its symbolic name, so a failure reads
 * like {@code sendto(netlink) failed: errno 111 ECONNREFUSED (Connection refused)}.
 */
public final class NativeCallException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    public NativeCallException(final String call, final int errno)
    {
        super(call + " failed: " + Errno.describe(errno));
        this.call = call;
        this.errno = errno;
    }

    public String call()
    {
        return call;
    }

    public int errno()
    {
        return errno;
    }
}

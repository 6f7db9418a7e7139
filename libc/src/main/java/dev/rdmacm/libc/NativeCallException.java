package dev.rdmacm.libc;

/**
 * A libc call failed: names the call, the errno number and its symbolic name, so a failure reads
 * like {@code sendto(netlink) failed: errno 111 ECONNREFUSED (Connection refused)}.
 */
public final class NativeCallException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    private final String call;

    public NativeCallException(final String call, final int errno)
    {
        super(call + " failed: " + Errno.describe(errno), errno);
        this.call = call;
    }

    public String call()
    {
        return call;
    }
}

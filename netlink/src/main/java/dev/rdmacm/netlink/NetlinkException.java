package dev.rdmacm.netlink;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;

/**
 * The kernel answered a netlink request with NLMSG_ERROR: carries the errno and, when the kernel gave
 * one, its extended-ack text, e.g. {@code RTM_GETROUTE failed: errno 101 ENETUNREACH (Network is
 * unreachable)} or {@code ... errno 22 EINVAL (Invalid argument): ipv6: Invalid flags for get route request}.
 */
public final class NetlinkException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    private final String request;
    private final String extendedAck;

    public NetlinkException(final String request, final int errno, final String extendedAck)
    {
        super(request + " failed: " + Errno.describe(errno) + (extendedAck == null ? "" : ": " + extendedAck), errno);
        this.request = request;
        this.extendedAck = extendedAck;
    }

    /** The same failure with what the request was about, e.g. {@code RTM_GETROUTE 10.1.0.2}. */
    public NetlinkException about(final String subject)
    {
        return new NetlinkException(request + " " + subject, errno(), extendedAck);
    }

    public String request()
    {
        return request;
    }

    /** The kernel's NLMSGERR_ATTR_MSG text, or null. */
    public String extendedAck()
    {
        return extendedAck;
    }
}

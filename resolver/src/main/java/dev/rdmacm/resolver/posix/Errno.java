package dev.rdmacm.resolver.posix;

/**
 * The Linux x86-64 errno values address resolution reports or reacts to, because the RDMA CM reports
 * failures as (negative) errno and users compare them with the kernel's; names and texts come from
 * the verbs module's table and glibc.
 */
public final class Errno
{
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTO = 71;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETUNREACH = 101;
    public static final int ENOBUFS = 105;
    public static final int ETIMEDOUT = 110;
    public static final int EHOSTUNREACH = 113;

    private Errno()
    {
    }

    /** {@code errno 101 ENETUNREACH (Network is unreachable)}: how every error message of this module names one. */
    public static String describe(final int errno)
    {
        return "errno " + errno + " " + name(errno) + " (" + description(errno) + ")";
    }

    /** The symbolic name, e.g. {@code ETIMEDOUT} (the verbs module's table of every Linux errno). */
    public static String name(final int errno)
    {
        return dev.rdmacm.verbs.Errno.name(errno);
    }

    /** glibc's text for it, e.g. {@code Connection timed out} ({@code strerrordesc_np}). */
    public static String description(final int errno)
    {
        return Libc.strerrordesc(errno);
    }
}

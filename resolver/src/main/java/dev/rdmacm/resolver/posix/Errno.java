package dev.rdmacm.resolver.posix;

/**
 * The Linux x86-64 errno values this stack reports or reacts to, with their symbolic names, because
 * the RDMA CM reports failures as (negative) errno and users compare them with the kernel's.
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
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTO = 71;
    public static final int EMSGSIZE = 90;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETDOWN = 100;
    public static final int ENETUNREACH = 101;
    public static final int ENOBUFS = 105;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;

    private Errno()
    {
    }

    /** The symbolic name, e.g. {@code ETIMEDOUT}, or {@code E<n>} for a value this table lacks. */
    public static String name(final int errno)
    {
        return switch (errno)
        {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case EINTR -> "EINTR";
            case EIO -> "EIO";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EBUSY -> "EBUSY";
            case EEXIST -> "EEXIST";
            case ENODEV -> "ENODEV";
            case EINVAL -> "EINVAL";
            case ENOSPC -> "ENOSPC";
            case ERANGE -> "ERANGE";
            case ENOSYS -> "ENOSYS";
            case ENODATA -> "ENODATA";
            case EPROTO -> "EPROTO";
            case EMSGSIZE -> "EMSGSIZE";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            case EAFNOSUPPORT -> "EAFNOSUPPORT";
            case EADDRINUSE -> "EADDRINUSE";
            case EADDRNOTAVAIL -> "EADDRNOTAVAIL";
            case ENETDOWN -> "ENETDOWN";
            case ENETUNREACH -> "ENETUNREACH";
            case ENOBUFS -> "ENOBUFS";
            case ETIMEDOUT -> "ETIMEDOUT";
            case ECONNREFUSED -> "ECONNREFUSED";
            case EHOSTUNREACH -> "EHOSTUNREACH";
            default -> "E" + errno;
        };
    }

    /** glibc's {@code strerror} text for the values in this table. */
    public static String description(final int errno)
    {
        return switch (errno)
        {
            case EPERM -> "Operation not permitted";
            case ENOENT -> "No such file or directory";
            case EINTR -> "Interrupted system call";
            case EIO -> "Input/output error";
            case EBADF -> "Bad file descriptor";
            case EAGAIN -> "Resource temporarily unavailable";
            case ENOMEM -> "Cannot allocate memory";
            case EACCES -> "Permission denied";
            case EBUSY -> "Device or resource busy";
            case EEXIST -> "File exists";
            case ENODEV -> "No such device";
            case EINVAL -> "Invalid argument";
            case ENOSPC -> "No space left on device";
            case ERANGE -> "Numerical result out of range";
            case ENOSYS -> "Function not implemented";
            case ENODATA -> "No data available";
            case EPROTO -> "Protocol error";
            case EMSGSIZE -> "Message too long";
            case EOPNOTSUPP -> "Operation not supported";
            case EAFNOSUPPORT -> "Address family not supported by protocol";
            case EADDRINUSE -> "Address already in use";
            case EADDRNOTAVAIL -> "Cannot assign requested address";
            case ENETDOWN -> "Network is down";
            case ENETUNREACH -> "Network is unreachable";
            case ENOBUFS -> "No buffer space available";
            case ETIMEDOUT -> "Connection timed out";
            case ECONNREFUSED -> "Connection refused";
            case EHOSTUNREACH -> "No route to host";
            default -> "Unknown error " + errno;
        };
    }
}

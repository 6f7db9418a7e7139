package dev.rdmacm.resolver.addrinfo;

/** The errno values {@code rdma_getaddrinfo} sets, with glibc's {@code strerror} text. */
public enum Errno
{
    ENOENT(2, "No such file or directory"),
    ENOMEM(12, "Cannot allocate memory"),
    EBUSY(16, "Device or resource busy"),
    ENODEV(19, "No such device"),
    EINVAL(22, "Invalid argument"),
    EOPNOTSUPP(95, "Operation not supported");

    private final int value;
    private final String message;

    Errno(final int value, final String message)
    {
        this.value = value;
        this.message = message;
    }

    public int value()
    {
        return value;
    }

    public String message()
    {
        return message;
    }
}

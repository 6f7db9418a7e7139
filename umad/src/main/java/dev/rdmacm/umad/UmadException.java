package dev.rdmacm.umad;

import dev.rdmacm.libc.ErrnoException;

/**
 * A umad operation failed: finding the device in sysfs, opening it, registering or unregistering an
 * agent, sending or receiving. The message names the device and port, the operation and what the
 * kernel's errno means for it (umad's errnos are overloaded: see docs/umad.md); the cause is the
 * libc call's own exception when there was one.
 */
public class UmadException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    public UmadException(final String message, final int errno)
    {
        super(message, errno);
    }

    public UmadException(final String message, final int errno, final Throwable cause)
    {
        super(message, errno, cause);
    }
}

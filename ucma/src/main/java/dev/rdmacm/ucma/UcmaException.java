package dev.rdmacm.ucma;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.ucma.abi.UcmaCommand;

/**
 * The kernel refused a ucma command, or the device could not be opened: the message names the command
 * as the ABI does ({@code RDMA_USER_CM_CMD_RESOLVE_ADDR}), then the errno by name and glibc's text, then
 * the device, e.g. {@code RDMA_USER_CM_CMD_RESOLVE_ADDR: EADDRNOTAVAIL (Cannot assign requested address)
 * on /dev/infiniband/rdma_cm}. The errno is the kernel's, unchanged, as librdmacm's callers see it.
 */
public final class UcmaException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    /** The command, or null when opening the device failed. */
    private final transient UcmaCommand command;

    /** A command the kernel refused (or a short write: ENODATA, as librdmacm reports it). */
    public UcmaException(final UcmaCommand command, final int errno, final String device)
    {
        super(command.cName() + ": " + Errno.name(errno) + " (" + Errno.description(errno) + ") on " + device, errno);
        this.command = command;
    }

    /** The device could not be opened or does not speak this ABI; {@code why} says what that means. */
    public UcmaException(final String why, final int errno, final Throwable cause)
    {
        super(why + ": " + Errno.name(errno) + " (" + Errno.description(errno) + ")", errno, cause);
        this.command = null;
    }

    /** The refused command; null when the failure was opening the device. */
    public UcmaCommand command()
    {
        return command;
    }
}

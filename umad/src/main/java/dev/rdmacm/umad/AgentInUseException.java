package dev.rdmacm.umad;

/**
 * The kernel refused an agent registration because another agent on the port already holds one of
 * its methods for that class and version ({@code method_in_use} in mad.c: EINVAL, and "Method N
 * already in use" in the kernel log). The holder is another umad file (this process's or another's)
 * or a kernel client: for the CM class, the kernel's {@code ib_cm}, which registers class 0x07
 * version 2 method Send on every port as soon as it is loaded ({@link #kernelCmLoaded}).
 */
public final class AgentInUseException extends UmadException
{
    private static final long serialVersionUID = 1L;

    private final AgentRegistration registration;
    private final boolean kernelCmLoaded;

    AgentInUseException(final String message, final int errno, final Throwable cause,
        final AgentRegistration registration, final boolean kernelCmLoaded)
    {
        super(message, errno, cause);
        this.registration = registration;
        this.kernelCmLoaded = kernelCmLoaded;
    }

    public AgentRegistration registration()
    {
        return registration;
    }

    /** Whether {@code ib_cm} was loaded ({@code /sys/module/ib_cm}) and holds the CM class: then only unloading it helps. */
    public boolean kernelCmLoaded()
    {
        return kernelCmLoaded;
    }
}

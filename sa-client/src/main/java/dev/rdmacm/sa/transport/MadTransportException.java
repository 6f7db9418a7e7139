package dev.rdmacm.sa.transport;

/** A MAD transport that cannot work: attach refused, socket closed, device gone. The message names the step. */
public final class MadTransportException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public MadTransportException(final String message)
    {
        super(message);
    }

    public MadTransportException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}

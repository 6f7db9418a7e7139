package dev.rdmacm.sa;

import dev.rdmacm.libc.ErrnoException;

/**
 * An SA query that ended without records: {@link #error()} says why, the message names the query,
 * the SA and the raw MAD status when there is one. Its {@link #errno()} is the one librdmacm users see
 * for that outcome ({@link SaError#errno()}).
 */
public final class SaQueryException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    private final SaError error;
    private final int madStatus;

    public SaQueryException(final SaError error, final int madStatus, final String message)
    {
        super(message, error.errnoNumber(), false);
        this.error = error;
        this.madStatus = madStatus;
    }

    public SaError error()
    {
        return error;
    }

    /** The MAD status word of the response, or -1 when the query ended without one (timeout, close). */
    public int madStatus()
    {
        return madStatus;
    }
}

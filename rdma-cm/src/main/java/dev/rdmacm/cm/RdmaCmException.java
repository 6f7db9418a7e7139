package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.resolver.ResolutionTrace;

/**
 * An RDMA CM operation failed with an errno, either returned by the call (as librdmacm returns -1 and
 * sets errno) or reported by an error event (status = -errno). Unchecked, as every
 * {@link ErrnoException} (its class comment says why); the methods that throw it declare it.
 */
public final class RdmaCmException extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    /** Whether the call returned the error, rather than a later event. */
    private final boolean returnedByCall;
    private final transient ResolutionTrace trace;

    /**
     * A failed call or event, its message {@code OPERATION failed: ERRNO (text): DETAIL}.
     *
     * @param operation      what failed, the call's name ({@code rdma_resolve_addr}) or what it was doing.
     * @param errno          the errno the call returns or the failure event carries (negated).
     * @param detail         what was tried and why it failed, or null.
     * @param returnedByCall whether the call itself returned the error, rather than a later event.
     */
    public RdmaCmException(final String operation, final int errno, final String detail, final boolean returnedByCall)
    {
        this(operation, errno, detail, returnedByCall, null);
    }

    /**
     * The same with the steps the resolution took before it failed.
     *
     * @param operation      what failed.
     * @param errno          the errno.
     * @param detail         what was tried and why it failed, or null.
     * @param returnedByCall whether the call itself returned the error.
     * @param trace          the resolution's steps so far, or null.
     */
    public RdmaCmException(
        final String operation, final int errno, final String detail, final boolean returnedByCall,
        final ResolutionTrace trace)
    {
        super(operation + " failed: " + Errno.name(errno) + " (" + Errno.description(errno) + ")" +
            (detail == null || detail.isEmpty() ? "" : ": " + detail), errno);
        this.returnedByCall = returnedByCall;
        this.trace = trace;
    }

    /**
     * A failure whose {@code errno} is not an errno: rdma-core HEAD's {@code rdma_resolve_addrinfo} sets
     * {@code errno} to whatever {@code rdma_getaddrinfo} returned, a negative {@code EAI_*} code or -1,
     * and the message names it as such.
     */
    RdmaCmException(final String operation, final int errno, final String errnoName, final String errnoText,
        final String detail)
    {
        super(operation + " failed: errno " + errno + " " + errnoName + " (" + errnoText + ")" +
            (detail == null || detail.isEmpty() ? "" : ": " + detail), errno);
        this.returnedByCall = true;
        this.trace = null;
    }

    /** {@return the steps of the resolution that failed, or null when it never started} */
    public ResolutionTrace trace()
    {
        return trace;
    }

    /** {@return true when the call itself failed (no event was produced); false for an error event} */
    public boolean returnedByCall()
    {
        return returnedByCall;
    }
}

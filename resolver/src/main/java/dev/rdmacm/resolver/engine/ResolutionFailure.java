package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.ErrnoException;

/** A step of resolution failed with an errno; internal to the event loop, so without a stack trace. */
public final class ResolutionFailure extends ErrnoException
{
    private static final long serialVersionUID = 1L;

    /**
     * A failed step, without a stack trace.
     *
     * @param errno  what the step failed with.
     * @param detail what the step was doing, for the error's message.
     */
    public ResolutionFailure(final int errno, final String detail)
    {
        super(detail, errno, false);
    }
}

package dev.rdmacm.cm;

/** A step of resolution failed with an errno; internal to the event loop, so without a stack trace. */
final class ResolutionFailure extends Exception
{
    private static final long serialVersionUID = 1L;

    final int errno;

    ResolutionFailure(final int errno, final String detail)
    {
        super(detail, null, false, false);
        this.errno = errno;
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;

import java.time.Duration;

/** The {@code int timeout_ms} of librdmacm's calls, from the {@link Duration} the API takes. */
final class CmTimeout
{
    private static final Duration MAX_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);

    private CmTimeout()
    {
    }

    /**
     * The {@code int timeout_ms} librdmacm would pass the kernel for {@code timeout}: a sub-millisecond
     * remainder rounds up, so that a positive timeout never becomes 0 (which rdma_resolve_route refuses
     * and which rdma_resolve_addr takes as "no wait"), and every deadline the resolver then keeps is the
     * whole number of milliseconds the kernel would keep. Null, negative and beyond {@code int} range are
     * EINVAL, returned by the call, as librdmacm would refuse the int it cannot be given.
     */
    static int timeoutMs(final String call, final Duration timeout) throws RdmaCmException
    {
        if (timeout == null)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout is null", true);
        }
        if (timeout.compareTo(MAX_TIMEOUT) > 0)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout " + timeout + " exceeds librdmacm's int timeout_ms (" +
                Integer.MAX_VALUE + " ms)", true);
        }
        if (timeout.isNegative())
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout " + timeout.toMillis() + " ms is negative", true);
        }
        final long millis = timeout.toMillis();
        // whole milliseconds when the nanoseconds below the second are: no Duration made per call to compare
        return (int)(timeout.getNano() % 1_000_000 == 0 ? millis : millis + 1);
    }
}

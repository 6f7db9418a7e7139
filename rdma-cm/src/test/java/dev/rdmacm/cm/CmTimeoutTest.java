package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Duration becomes librdmacm's {@code int timeout_ms}, the value the kernel would be given. */
class CmTimeoutTest
{
    @Test
    void shouldKeepWholeMillisecondsExactly() throws Exception
    {
        assertEquals(2000, CmTimeout.timeoutMs("rdma_resolve_addr", Duration.ofSeconds(2)));
        assertEquals(0, CmTimeout.timeoutMs("rdma_resolve_addr", Duration.ZERO));
        assertEquals(Integer.MAX_VALUE, CmTimeout.timeoutMs("rdma_resolve_addr", Duration.ofMillis(Integer.MAX_VALUE)));
    }

    @Test
    void shouldRoundASubMillisecondRemainderUpSoThatAPositiveTimeoutIsNeverZero() throws Exception
    {
        assertEquals(1, CmTimeout.timeoutMs("rdma_resolve_route", Duration.ofNanos(1)));
        assertEquals(2001, CmTimeout.timeoutMs("rdma_resolve_route", Duration.ofNanos(2_000_000_001L)));
    }

    @Test
    void shouldRefuseANegativeTimeoutWithEinvalReturnedByTheCall()
    {
        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> CmTimeout.timeoutMs("rdma_resolve_addr", Duration.ofMillis(-1)));
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.returnedByCall());
        assertTrue(ex.getMessage().startsWith("rdma_resolve_addr failed: EINVAL"), ex.getMessage());
        assertTrue(ex.getMessage().endsWith("timeout -1 ms is negative"), ex.getMessage());
    }

    @Test
    void shouldRefuseATimeoutBeyondLibrdmacmsInt()
    {
        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> CmTimeout.timeoutMs("rdma_resolve_route", Duration.ofMillis(Integer.MAX_VALUE + 1L)));
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("exceeds librdmacm's int timeout_ms (2147483647 ms)"), ex.getMessage());
    }
}

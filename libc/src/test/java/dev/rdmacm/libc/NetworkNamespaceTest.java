package dev.rdmacm.libc;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Entering a namespace fails with an exception naming the call, the path and the errno; names are checked. */
class NetworkNamespaceTest
{
    @Test
    void shouldReportAMissingNamespace()
    {
        final NativeCallException error = assertThrows(NativeCallException.class,
            () -> NetworkNamespace.enter(Path.of("/run/netns/rdmacm-no-such-namespace")));
        assertEquals(Errno.ENOENT, error.errno());
        assertEquals("open(/run/netns/rdmacm-no-such-namespace) failed: errno 2 ENOENT (No such file or directory)",
            error.getMessage());
    }

    @Test
    void shouldRejectANamespaceNameWithASlash()
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> NetworkNamespace.byName("../etc"));
        assertEquals("network namespace name '../etc' is not valid: expected a name as 'ip netns list' prints it",
            error.getMessage());
    }
}

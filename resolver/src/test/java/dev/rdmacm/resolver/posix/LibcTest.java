package dev.rdmacm.resolver.posix;

import dev.rdmacm.verbs.Errno;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** libc failures become exceptions naming the call, the errno and its name. */
class LibcTest
{
    @Test
    void shouldNameTheCallAndErrnoWhenCloseFails()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final NativeCallException error =
                assertThrows(NativeCallException.class, () -> Libc.close(new Libc.CallState(arena), -1));
            assertEquals(Errno.EBADF, error.errno());
            assertEquals("close(-1) failed: errno 9 EBADF (Bad file descriptor)", error.getMessage());
        }
    }

    @Test
    void shouldReportAnUnsupportedSocketFamily()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final NativeCallException error = assertThrows(NativeCallException.class,
                () -> Libc.socket(new Libc.CallState(arena), 4242, Libc.SOCK_RAW, 0));
            assertEquals(Errno.EAFNOSUPPORT, error.errno());
            assertEquals("socket(domain 4242, type 3, protocol 0) failed: errno 97 EAFNOSUPPORT " +
                "(Address family not supported by protocol)", error.getMessage());
        }
    }

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

package dev.rdmacm.verbs.posix;

import dev.rdmacm.verbs.Errno;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

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
}

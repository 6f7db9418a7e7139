package dev.rdmacm.libc;

import dev.rdmacm.testing.CProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** libc failures become exceptions naming the call, the errno and its name; a denied access says how to grant it. */
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
    void shouldAnswerMinusOneForAWriteThatWouldBlockAndNameTheCallOfAnyOtherFailure()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final MemorySegment fds = arena.allocate(JAVA_INT, 2);
            Libc.pipe2(state, fds, Libc.O_NONBLOCK | Libc.O_CLOEXEC);
            final int readEnd = fds.getAtIndex(JAVA_INT, 0);
            final int writeEnd = fds.getAtIndex(JAVA_INT, 1);
            try
            {
                // a pipe holds 16 pages by default (pipe(7)): a write of 1 MiB fills it and takes what fits
                final MemorySegment chunk = arena.allocate(1 << 20);
                final long taken = Libc.writeUnlessWouldBlock(state, writeEnd, chunk, chunk.byteSize(), "a pipe");

                assertTrue(taken > 0 && taken < chunk.byteSize(), "a full pipe took " + taken + " bytes");
                assertEquals(-1, Libc.writeUnlessWouldBlock(state, writeEnd, chunk, 1, "a full pipe"));
                final NativeCallException refused = assertThrows(NativeCallException.class,
                    () -> Libc.writeUnlessWouldBlock(state, readEnd, chunk, 1, "a pipe's read end"));
                assertEquals("write(a pipe's read end) failed: errno 9 EBADF (Bad file descriptor)", refused.getMessage());
            }
            finally
            {
                Libc.close(state, readEnd);
                Libc.close(state, writeEnd);
            }
        }
    }

    @Test
    void shouldReportARequestTheDeviceDoesNotKnowAsEnotty()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final int fd = Libc.open(state, arena.allocateFrom("/dev/null"), "/dev/null", Libc.O_RDWR | Libc.O_CLOEXEC);
            try
            {
                // FIONREAD: /dev/null is a character device without an ioctl handler
                final NativeCallException error = assertThrows(NativeCallException.class,
                    () -> Libc.ioctl(state, fd, 0x541b, arena.allocate(4), "FIONREAD on /dev/null"));
                assertEquals(Errno.ENOTTY, error.errno());
                assertEquals("ioctl(FIONREAD on /dev/null) failed: errno 25 ENOTTY (Inappropriate ioctl for device)",
                    error.getMessage());
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }

    @Test
    void shouldUseGlibcsOpenFlags()
    {
        final String glibc = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <fcntl.h>
            int main(void) { printf("%d %d %d %d\\n", O_RDONLY, O_RDWR, O_NONBLOCK, O_CLOEXEC); return 0; }
            """);
        assertEquals(glibc, Libc.O_RDONLY + " " + Libc.O_RDWR + " " + Libc.O_NONBLOCK + " " + Libc.O_CLOEXEC + "\n");
    }

    @Test
    void shouldUseGlibcsConnectConstants()
    {
        final String glibc = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <errno.h>
            #include <poll.h>
            #include <sys/socket.h>
            int main(void)
            {
                printf("%d %d %d %d %d %d\\n", AF_UNIX, SOCK_STREAM, SO_ERROR, MSG_NOSIGNAL, POLLOUT, EINPROGRESS);
                return 0;
            }
            """);
        assertEquals(glibc, Libc.AF_UNIX + " " + Libc.SOCK_STREAM + " " + Libc.SO_ERROR + " " + Libc.MSG_NOSIGNAL + " " +
            Libc.POLLOUT + " " + Errno.EINPROGRESS + "\n");
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
    void shouldConnectANonblockingSocketToALoopbackListenerAndReadNoErrorFromIt() throws IOException
    {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final int fd = Libc.socket(state, Libc.AF_INET, Libc.SOCK_STREAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
            try
            {
                final MemorySegment address = sockaddrIn(arena, ((InetSocketAddress)listener.getLocalAddress()).getPort());
                if (!Libc.connect(state, fd, address, (int)address.byteSize(), "loopback listener"))
                {
                    // under way (EINPROGRESS): complete once writable
                    final MemorySegment pollFd = arena.allocate(Libc.POLLFD_SIZE, 8);
                    pollFd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, fd);
                    pollFd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLOUT);
                    assertEquals(1, Libc.poll(state, pollFd, 1, 10_000));
                }
                final MemorySegment error = arena.allocate(JAVA_INT);
                final MemorySegment length = arena.allocate(JAVA_INT);
                length.set(JAVA_INT, 0, 4);
                Libc.getsockopt(state, fd, Libc.SOL_SOCKET, Libc.SO_ERROR, "SO_ERROR", error, length);

                assertEquals(0, error.get(JAVA_INT, 0));
                assertNotNull(listener.accept(), "the connection is in the listener's queue");
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }

    @Test
    void shouldNameTheCallAndTheSocketWhenNoUnixListenerIsThere(@TempDir final Path dir)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final int fd = Libc.socket(state, Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
            try
            {
                final MemorySegment address = arena.allocate(110, 2);
                address.set(JAVA_SHORT, 0, (short)Libc.AF_UNIX);
                address.setString(2, dir.resolve("absent.sock").toString());

                final NativeCallException error = assertThrows(NativeCallException.class,
                    () -> Libc.connect(state, fd, address, (int)address.byteSize(), "absent.sock"));
                assertEquals(Errno.ENOENT, error.errno());
                assertEquals("connect(absent.sock) failed: errno 2 ENOENT (No such file or directory)", error.getMessage());
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }

    /** {@code struct sockaddr_in} of 127.0.0.1:{@code port}. */
    private static MemorySegment sockaddrIn(final Arena arena, final int port)
    {
        final MemorySegment address = arena.allocate(16, 4);
        address.set(JAVA_SHORT, 0, (short)Libc.AF_INET);
        address.set(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short)port);
        address.set(JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), 4, 0x7f00_0001);
        return address;
    }

    @Test
    void shouldNameTheLoopbackInterfaceByItsIndex() throws NativeCallException
    {
        try (Arena arena = Arena.ofConfined())
        {
            // the kernel gives lo index 1 in every network namespace
            assertEquals("lo", Libc.ifIndexToName(new Libc.CallState(arena), 1, arena.allocate(Libc.IF_NAMESIZE)));
        }
    }

    @Test
    void shouldNameNoInterfaceForAnAbsentIndex() throws NativeCallException
    {
        try (Arena arena = Arena.ofConfined())
        {
            assertNull(Libc.ifIndexToName(new Libc.CallState(arena), Integer.MAX_VALUE, arena.allocate(Libc.IF_NAMESIZE)));
        }
    }

    @Test
    void shouldRejectABufferSmallerThanAnInterfaceName()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Libc.ifIndexToName(new Libc.CallState(arena), 1, arena.allocate(8)));
            assertEquals("if_indextoname: buffer of 8 bytes is smaller than IF_NAMESIZE (16)", error.getMessage());
        }
    }

    @Test
    void shouldDescribeAnErrnoGlibcDoesNotKnowAsUnknown()
    {
        assertNull(Libc.strerrordesc(134));
        assertEquals("Unknown error 134", Errno.description(134));
    }

    @Test
    void shouldNameErrnosAndExplainTheFlagWhenNativeAccessIsDenied() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--illegal-native-access=deny",
            "-cp", System.getProperty("java.class.path"), LibcDeniedProbe.class.getName())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            process.getOutputStream().close();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not finish in 60 s");
            assertEquals("errno 110 ETIMEDOUT (Unknown error 110)\n" +
                "native access to libc (close) is denied: start the JVM with --enable-native-access=ALL-UNNAMED " +
                "(the rdmacm launcher and jar manifest do)\n", output);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}

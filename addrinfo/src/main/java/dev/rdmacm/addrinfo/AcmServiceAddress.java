package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Libc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Where librdmacm 44's {@code ucma_ib_init} connects: {@code ucma_set_server_port} reads the port file
 * (Debian's {@code /run/ibacm.port}), and a number in it means TCP on 127.0.0.1 at that port; without
 * one, the unix socket ({@code /run/ibacm.sock}).
 * <pre>
 *   sockaddr_in (16): sin_family u16 (host order) | sin_port u16 (big-endian) | sin_addr (4, 127.0.0.1) | zero (8)
 *   sockaddr_un (110): sun_family u16 (host order) | sun_path (108, NUL-terminated)
 * </pre>
 *
 * @param port   the TCP port on loopback, or 0 for the unix socket.
 * @param socket the unix socket, when {@code port} is 0.
 */
public record AcmServiceAddress(int port, Path socket)
{
    private static final int SOCKADDR_IN_LENGTH = 16;
    private static final int SIN_PORT_OFFSET = 2;
    private static final int SIN_ADDR_OFFSET = 4;
    private static final int LOOPBACK = 0x7f00_0001;
    private static final int SUN_PATH_OFFSET = 2;
    private static final int SUN_PATH_LENGTH = 108;

    /** {@code ucma_set_server_port}: read at each {@code ucma_ib_init}, that is once per client. */
    public static AcmServiceAddress read(final Path portFile, final Path socket)
    {
        try
        {
            final String text = Files.readString(portFile, StandardCharsets.US_ASCII).strip();
            final int port = Integer.parseInt(text.split("\\s+")[0]);
            if (port > 0 && port <= 0xffff)
            {
                return new AcmServiceAddress(port, socket);
            }
        }
        catch (final IOException | NumberFormatException | SecurityException ex)
        {
            // no port file, or no number in it: librdmacm's server_port 0
        }
        return new AcmServiceAddress(0, socket);
    }

    /** {@link Libc#AF_INET} or {@link Libc#AF_UNIX}. */
    public int family()
    {
        return port != 0 ? Libc.AF_INET : Libc.AF_UNIX;
    }

    /**
     * The {@code struct sockaddr} to connect to, in {@code arena}.
     *
     * @throws IllegalArgumentException when the socket's path does not fit {@code sun_path} (107 bytes and a NUL).
     */
    public MemorySegment sockaddr(final Arena arena)
    {
        if (port != 0)
        {
            final MemorySegment in = arena.allocate(SOCKADDR_IN_LENGTH, 4);
            in.set(JAVA_SHORT_UNALIGNED, 0, (short)Libc.AF_INET);
            in.set(JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), SIN_PORT_OFFSET, (short)port);
            in.set(JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), SIN_ADDR_OFFSET, LOOPBACK);
            return in;
        }
        final byte[] path = socket.toString().getBytes(StandardCharsets.UTF_8);
        if (path.length >= SUN_PATH_LENGTH)
        {
            throw new IllegalArgumentException("ACM socket " + socket + ": " + path.length +
                " bytes do not fit sun_path (at most " + (SUN_PATH_LENGTH - 1) + ")");
        }
        final MemorySegment un = arena.allocate(SUN_PATH_OFFSET + SUN_PATH_LENGTH, 2);
        un.set(JAVA_SHORT_UNALIGNED, 0, (short)Libc.AF_UNIX);
        MemorySegment.copy(path, 0, un, JAVA_BYTE, SUN_PATH_OFFSET, path.length);
        return un;
    }

    @Override
    public String toString()
    {
        return port != 0 ? "127.0.0.1:" + port : socket.toString();
    }
}

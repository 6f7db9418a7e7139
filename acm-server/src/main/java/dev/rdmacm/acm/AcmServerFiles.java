package dev.rdmacm.acm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The files through which clients find the service, laid out as ibacm lays them out in its run
 * directory: {@code ibacm-unix.sock} (ib_acme's default) with the symlink {@code ibacm.sock}
 * (librdmacm's), and for TCP {@code ibacm-tcp.port} (ib_acme's) with the symlink {@code ibacm.port}
 * (librdmacm's, which it prefers over the socket). The symlinks are left out with
 * {@code acme_plus_kernel_only}, which hides the service from librdmacm.
 */
public final class AcmServerFiles
{
    public static final String UNIX_SOCKET = "ibacm-unix.sock";
    public static final String UNIX_SOCKET_LINK = "ibacm.sock";
    public static final String PORT_FILE = "ibacm-tcp.port";
    public static final String PORT_FILE_LINK = "ibacm.port";

    private final Path runDir;
    private final boolean links;

    public AcmServerFiles(final Path runDir, final boolean links)
    {
        this.runDir = runDir;
        this.links = links;
    }

    public Path unixSocket()
    {
        return runDir.resolve(UNIX_SOCKET);
    }

    public Path portFile()
    {
        return runDir.resolve(PORT_FILE);
    }

    /** Removes a socket left by a previous run and the port files of a previous TCP mode. */
    void clearStale() throws IOException
    {
        Files.createDirectories(runDir);
        for (final String name : new String[] {UNIX_SOCKET, UNIX_SOCKET_LINK, PORT_FILE, PORT_FILE_LINK})
        {
            Files.deleteIfExists(runDir.resolve(name));
        }
    }

    /** After the unix socket is bound: its librdmacm symlink. */
    void publishUnixSocket() throws IOException
    {
        if (links)
        {
            Files.createSymbolicLink(runDir.resolve(UNIX_SOCKET_LINK), Path.of(UNIX_SOCKET));
        }
    }

    /** After the TCP listener is bound: the port file ({@code "%hu\n"}, as ibacm writes it) and its link. */
    void publishPort(final int port) throws IOException
    {
        final Path temporary = runDir.resolve(PORT_FILE + ".tmp");
        Files.writeString(temporary, port + "\n", StandardCharsets.US_ASCII);
        Files.move(temporary, portFile(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        if (links)
        {
            Files.createSymbolicLink(runDir.resolve(PORT_FILE_LINK), Path.of(PORT_FILE));
        }
    }

    /** Removes every file this service created; quiet, because it runs on shutdown paths. */
    void remove()
    {
        for (final String name : new String[] {UNIX_SOCKET_LINK, PORT_FILE_LINK, UNIX_SOCKET, PORT_FILE})
        {
            final Path path = runDir.resolve(name);
            try
            {
                if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                {
                    Files.delete(path);
                }
            }
            catch (final IOException ignored)
            {
                // best effort on shutdown; a stale file is cleared by the next start
            }
        }
    }
}

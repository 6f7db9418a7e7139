package dev.rdmacm.acm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files through which clients find the service, laid out as ibacm lays them out in its run
 * directory: {@code ibacm-unix.sock} (ib_acme's default) with the symlink {@code ibacm.sock}
 * (librdmacm's), and for TCP {@code ibacm-tcp.port} (ib_acme's) with the symlink {@code ibacm.port}
 * (librdmacm's, which it prefers over the socket). The symlinks are left out with
 * {@code acme_plus_kernel_only}, which hides the service from librdmacm.
 * <p>
 * Ownership: used only under the instance lock ({@link AcmInstanceLock}). A file left by an earlier
 * run is removed only when nothing answers on it (its socket refuses, its port is closed); a live
 * one makes the start fail instead. {@link #remove()} deletes only the files this process created,
 * and each only while it is still the same file (the same inode), so a file someone else put there
 * since is left alone.
 */
public final class AcmServerFiles
{
    public static final String UNIX_SOCKET = "ibacm-unix.sock";
    public static final String UNIX_SOCKET_LINK = "ibacm.sock";
    public static final String PORT_FILE = "ibacm-tcp.port";
    public static final String PORT_FILE_LINK = "ibacm.port";

    private final Path runDir;
    private final boolean links;
    /** The files this process created, with the file key each had then. */
    private final Map<Path, Object> created = new LinkedHashMap<>();

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

    /**
     * Removes the socket, the port file and their links left by a run that is gone; refuses, naming
     * it, a socket or port that still answers: another service (an ibacm with another lock file) is
     * serving there, and taking its files would orphan it.
     */
    void clearStale() throws IOException
    {
        Files.createDirectories(runDir);
        final Path socket = unixSocket();
        if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS) && answers(UnixDomainSocketAddress.of(socket)))
        {
            throw new IOException(socket + " is a live socket: another ACM service answers on it");
        }
        final int port = publishedPort();
        if (port > 0 && answers(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)))
        {
            throw new IOException(portFile() + " names TCP port " + port + ", where another ACM service answers");
        }
        for (final String name : new String[] {UNIX_SOCKET, UNIX_SOCKET_LINK, PORT_FILE, PORT_FILE_LINK})
        {
            Files.deleteIfExists(runDir.resolve(name));
        }
    }

    private int publishedPort()
    {
        try
        {
            final byte[] bytes = Files.readAllBytes(portFile());
            return Integer.parseInt(new String(bytes, 0, Math.min(bytes.length, 16), StandardCharsets.US_ASCII).strip());
        }
        catch (final IOException | NumberFormatException ex)
        {
            return -1;
        }
    }

    private static boolean answers(final java.net.SocketAddress address)
    {
        try (SocketChannel probe = SocketChannel.open(address instanceof UnixDomainSocketAddress
            ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET))
        {
            return probe.connect(address);
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /** After the unix socket is bound: records it, and makes its librdmacm symlink. */
    void publishUnixSocket() throws IOException
    {
        created(unixSocket());
        if (links)
        {
            final Path link = runDir.resolve(UNIX_SOCKET_LINK);
            Files.createSymbolicLink(link, Path.of(UNIX_SOCKET));
            created(link);
        }
    }

    /** After the TCP listener is bound: the port file ({@code "%hu\n"}, as ibacm writes it) and its link. */
    void publishPort(final int port) throws IOException
    {
        final Path temporary = runDir.resolve(PORT_FILE + ".tmp");
        Files.writeString(temporary, port + "\n", StandardCharsets.US_ASCII);
        Files.move(temporary, portFile(), StandardCopyOption.ATOMIC_MOVE);
        created(portFile());
        if (links)
        {
            final Path link = runDir.resolve(PORT_FILE_LINK);
            Files.createSymbolicLink(link, Path.of(PORT_FILE));
            created(link);
        }
    }

    private void created(final Path path) throws IOException
    {
        created.put(path, fileKey(path));
    }

    private static Object fileKey(final Path path) throws IOException
    {
        return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }

    /**
     * Removes the files this process created that are still the ones it created; quiet, because it
     * runs on shutdown paths.
     */
    void remove()
    {
        for (final Map.Entry<Path, Object> file : created.entrySet())
        {
            try
            {
                if (Files.exists(file.getKey(), LinkOption.NOFOLLOW_LINKS)
                    && java.util.Objects.equals(fileKey(file.getKey()), file.getValue()))
                {
                    Files.delete(file.getKey());
                }
            }
            catch (final IOException ignored)
            {
                // best effort on shutdown; a stale file is cleared by the next start
            }
        }
        created.clear();
    }
}

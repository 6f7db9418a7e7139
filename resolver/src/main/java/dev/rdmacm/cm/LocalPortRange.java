package dev.rdmacm.cm;

import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.libc.NetworkNamespace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * {@code inet_get_local_port_range}: the namespace's {@code net.ipv4.ip_local_port_range}, from which
 * the kernel CM picks an unbound id's source port (for every address family, as the kernel does).
 *
 * @param low  the first port.
 * @param high the last port.
 */
record LocalPortRange(int low, int high)
{
    /** The kernel's default, used when the sysctl cannot be read. */
    static final LocalPortRange KERNEL_DEFAULT = new LocalPortRange(32768, 60999);
    private static final Path SYSCTL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    LocalPortRange
    {
        if (low < 1 || high > 65535 || low > high)
        {
            throw new IllegalArgumentException("local port range " + low + "-" + high + ": expected 1 <= low <= high <= 65535");
        }
    }

    /**
     * The range of {@code namespace}, or of this process's namespace when null. A net sysctl file
     * shows the namespace of the thread that opens it, so the file is read on a thread that entered
     * the namespace.
     */
    static LocalPortRange of(final Path namespace)
    {
        if (namespace == null)
        {
            return read();
        }
        final CompletableFuture<LocalPortRange> range = new CompletableFuture<>();
        final Thread reader = Thread.ofPlatform().name("rdmacm-port-range").unstarted(() ->
        {
            try
            {
                NetworkNamespace.enter(namespace);
                range.complete(read());
            }
            catch (final NativeCallException | RuntimeException ex)
            {
                range.complete(KERNEL_DEFAULT);
            }
        });
        reader.start();
        try
        {
            return range.get();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return KERNEL_DEFAULT;
        }
        catch (final ExecutionException impossible)
        {
            return KERNEL_DEFAULT;
        }
    }

    private static LocalPortRange read()
    {
        try
        {
            final String[] fields = Files.readString(SYSCTL).trim().split("\\s+");
            return new LocalPortRange(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]));
        }
        catch (final IOException | RuntimeException ex)
        {
            return KERNEL_DEFAULT;
        }
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.libc.ProcFile;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The network namespace's sysctls that the kernel CM reads when it binds an id:
 * {@code net.ipv4.ip_local_port_range} ({@code inet_get_local_port_range}, from which an unbound id
 * gets its source port, for every address family) and {@code net.ipv6.bindv6only} (the AFONLY default
 * of an IPv6 id in {@code rdma_bind_addr}; an IPv4 id is always AFONLY unless told otherwise).
 *
 * @param low        the first local port.
 * @param high       the last local port.
 * @param bindV6Only {@code net.ipv6.bindv6only}.
 */
record CmSysctls(int low, int high, boolean bindV6Only)
{
    /** The kernel's defaults, used when a sysctl cannot be read. */
    static final CmSysctls KERNEL_DEFAULT = new CmSysctls(32768, 60999, false);
    private static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Path BIND_V6_ONLY = Path.of("/proc/sys/net/ipv6/bindv6only");

    CmSysctls
    {
        if (low < 1 || high > 65535 || low > high)
        {
            throw new IllegalArgumentException("local port range " + low + "-" + high + ": expected 1 <= low <= high <= 65535");
        }
    }

    /** The sysctls of the calling thread's network namespace (the resolver's loop reads them there). */
    static CmSysctls read()
    {
        int low = KERNEL_DEFAULT.low();
        int high = KERNEL_DEFAULT.high();
        boolean bindV6Only = KERNEL_DEFAULT.bindV6Only();
        try
        {
            final String[] fields = ProcFile.read(PORT_RANGE).trim().split("\\s+");
            low = Integer.parseInt(fields[0]);
            high = Integer.parseInt(fields[1]);
        }
        catch (final IOException | RuntimeException ex)
        {
            // No such sysctl here (no /proc/sys): the kernel's default range.
        }
        try
        {
            bindV6Only = ProcFile.read(BIND_V6_ONLY).trim().equals("1");
        }
        catch (final IOException ex)
        {
            // No IPv6 in the namespace: the default.
        }
        return new CmSysctls(low, high, bindV6Only);
    }
}

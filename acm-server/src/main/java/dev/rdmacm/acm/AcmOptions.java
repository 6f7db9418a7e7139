package dev.rdmacm.acm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The service's options, read from a file in ibacm's {@code ibacm_opts.cfg} format: one
 * {@code name value} pair per line, {@code #} starts a comment line, names are case-insensitive,
 * lines with fewer than two words and unknown names are ignored (ibacm does the same, so one file
 * serves both). Unknown names are reported through {@link #ignored()} so the log can show them.
 * <p>
 * ibacm's names and defaults: {@code timeout} 2000 ms and {@code retries} 2 (per SA query),
 * {@code sa_depth} 1 (outstanding SA queries per endpoint), {@code addr_timeout} 1440 and
 * {@code route_timeout} -1 (cache lifetimes in minutes, negative = never expire), {@code server_mode}
 * unix, {@code server_port} 6125, {@code addr_preload} none|acm_hosts with {@code addr_data_file},
 * {@code route_preload} none|opensm_full_v1 with {@code route_data_file}, {@code log_file},
 * {@code log_level}, {@code acme_plus_kernel_only}.
 * <p>
 * Our additions (ibacm ignores them): {@code run_dir} (where the socket, port file and their
 * librdmacm symlinks live, default {@code /run}; tests point it at a temporary directory),
 * {@code addr_file} (the endpoint file, ibacm's {@code -A}), {@code max_clients}.
 * {@code server_port 0} picks a free port, which the port file then names.
 */
public final class AcmOptions
{
    public static final int DEFAULT_SERVER_PORT = 6125;

    private int timeoutMs = 2000;
    private int retries = 2;
    private int saDepth = 1;
    private int addrTimeoutMinutes = 1440;
    private int routeTimeoutMinutes = -1;
    private AcmServerMode serverMode = AcmServerMode.UNIX;
    private int serverPort = DEFAULT_SERVER_PORT;
    private boolean acmePlusKernelOnly;
    private boolean addrPreload;
    private Path addrDataFile = Path.of("/etc/rdma/ibacm_hosts.data");
    private boolean routePreload;
    private Path routeDataFile = Path.of("/etc/rdma/ibacm_route.data");
    private Path addrFile = Path.of("/etc/rdma/ibacm_addr.cfg");
    private String logFile = "stdout";
    private int logLevel;
    private Path runDir = Path.of("/run");
    private int maxClients = 4096;
    private boolean supportIpsInAddrCfg;
    private final List<String> ignored = new ArrayList<>();

    /** Reads {@code file}; a missing file means all defaults, as for ibacm. */
    public static AcmOptions read(final Path file) throws IOException
    {
        final AcmOptions options = new AcmOptions();
        if (file == null || !Files.exists(file))
        {
            return options;
        }
        int lineNumber = 0;
        for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
        {
            lineNumber++;
            options.apply(line, file + ":" + lineNumber);
        }
        return options;
    }

    /** Applies one line of the options file; {@code where} names it in errors. */
    public AcmOptions apply(final String line, final String where)
    {
        if (line.startsWith("#"))
        {
            return this;
        }
        final String[] words = line.trim().split("\\s+");
        if (words.length < 2 || words[0].isEmpty())
        {
            return this;
        }
        final String name = words[0].toLowerCase(Locale.ROOT);
        final String value = words[1];
        switch (name)
        {
            case "timeout" -> timeoutMs = positive(name, value, where);
            case "retries" -> retries = nonNegative(name, value, where);
            case "sa_depth" -> saDepth = positive(name, value, where);
            case "addr_timeout" -> addrTimeoutMinutes = integer(name, value, where);
            case "route_timeout" -> routeTimeoutMinutes = integer(name, value, where);
            case "server_mode" -> serverMode = AcmServerMode.parse(value);
            case "server_port" -> serverPort = port(value, where);
            case "acme_plus_kernel_only" -> acmePlusKernelOnly = "true".equalsIgnoreCase(value)
                || "yes".equalsIgnoreCase(value) || (isInteger(value) && Long.decode(value) != 0);
            case "addr_preload" -> addrPreload = "acm_hosts".equalsIgnoreCase(value);
            case "addr_data_file" -> addrDataFile = Path.of(value);
            case "route_preload" -> routePreload = "opensm_full_v1".equalsIgnoreCase(value);
            case "route_data_file" -> routeDataFile = Path.of(value);
            case "addr_file" -> addrFile = Path.of(value);
            case "log_file" -> logFile = value;
            case "log_level" -> logLevel = nonNegative(name, value, where);
            case "run_dir" -> runDir = Path.of(value);
            case "max_clients" -> maxClients = positive(name, value, where);
            case "support_ips_in_addr_cfg" -> supportIpsInAddrCfg = integer(name, value, where) != 0;
            default -> ignored.add(name);
        }
        return this;
    }

    private static boolean isInteger(final String value)
    {
        try
        {
            Long.decode(value);
            return true;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static int integer(final String name, final String value, final String where)
    {
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": option " + name + " '" + value + "' is not an integer");
        }
    }

    private static int positive(final String name, final String value, final String where)
    {
        final int number = integer(name, value, where);
        if (number <= 0)
        {
            throw new IllegalArgumentException(where + ": option " + name + " must be at least 1, got " + number);
        }
        return number;
    }

    private static int nonNegative(final String name, final String value, final String where)
    {
        final int number = integer(name, value, where);
        if (number < 0)
        {
            throw new IllegalArgumentException(where + ": option " + name + " must not be negative, got " + number);
        }
        return number;
    }

    private static int port(final String value, final String where)
    {
        final int number = integer("server_port", value, where);
        if (number < 0 || number > 65535)
        {
            throw new IllegalArgumentException(where + ": option server_port must be 0..65535, got " + number);
        }
        return number;
    }

    /** ibacm's {@code timeout}: how long one SA query attempt waits (whole milliseconds, as the file gives it). */
    public Duration timeout()
    {
        return Duration.ofMillis(timeoutMs);
    }

    public int retries()
    {
        return retries;
    }

    public int saDepth()
    {
        return saDepth;
    }

    /** ibacm's {@code addr_timeout}: how long a cached address lives; empty when it never expires (negative). */
    public Optional<Duration> addrTimeout()
    {
        return lifetime(addrTimeoutMinutes);
    }

    /** ibacm's {@code route_timeout}: how long a cached route lives; empty when it never expires (negative). */
    public Optional<Duration> routeTimeout()
    {
        return lifetime(routeTimeoutMinutes);
    }

    public AcmServerMode serverMode()
    {
        return serverMode;
    }

    public int serverPort()
    {
        return serverPort;
    }

    public boolean acmePlusKernelOnly()
    {
        return acmePlusKernelOnly;
    }

    public boolean addrPreload()
    {
        return addrPreload;
    }

    public Path addrDataFile()
    {
        return addrDataFile;
    }

    public boolean routePreload()
    {
        return routePreload;
    }

    public Path routeDataFile()
    {
        return routeDataFile;
    }

    public Path addrFile()
    {
        return addrFile;
    }

    /**
     * ibacm's {@code support_ips_in_addr_cfg} (default 0): whether IP addresses on the 4-column lines of
     * the endpoint file name an attached port's endpoint; without it only names do, and the IP
     * addresses come from the port's netdevs.
     */
    public boolean supportIpsInAddrCfg()
    {
        return supportIpsInAddrCfg;
    }

    public String logFile()
    {
        return logFile;
    }

    public int logLevel()
    {
        return logLevel;
    }

    public Path runDir()
    {
        return runDir;
    }

    public int maxClients()
    {
        return maxClients;
    }

    /** Option names this service does not know, in file order (ibacm provider options, typos). */
    public List<String> ignored()
    {
        return List.copyOf(ignored);
    }

    /** The time an SA query may take with its retries before the client gets ETIMEDOUT. */
    public Duration saDeadline()
    {
        return Duration.ofNanos(saDeadlineNs());
    }

    /** {@link #saDeadline()} in nanoseconds, for the service's clock arithmetic. */
    long saDeadlineNs()
    {
        return (long)timeoutMs * (retries + 1) * 1_000_000L;
    }

    /** {@link #addrTimeout()} in nanoseconds, {@link Long#MAX_VALUE} for never. */
    long addrLifetimeNs()
    {
        return lifetimeNs(addrTimeoutMinutes);
    }

    /** {@link #routeTimeout()} in nanoseconds, {@link Long#MAX_VALUE} for never. */
    long routeLifetimeNs()
    {
        return lifetimeNs(routeTimeoutMinutes);
    }

    /** A lifetime in minutes as nanoseconds, {@link Long#MAX_VALUE} when negative (never expires). */
    static long lifetimeNs(final int minutes)
    {
        return minutes < 0 ? Long.MAX_VALUE : minutes * 60_000_000_000L;
    }

    private static Optional<Duration> lifetime(final int minutes)
    {
        return minutes < 0 ? Optional.empty() : Optional.of(Duration.ofMinutes(minutes));
    }
}

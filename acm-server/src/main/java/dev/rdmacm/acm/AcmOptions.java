package dev.rdmacm.acm;

import dev.rdmacm.files.text.BoundedTextFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

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
 * {@code addr_file} (the endpoint file, ibacm's {@code -A}), {@code max_clients} (4096; past it a new
 * connection is closed, as ibacm closes it), {@code sa_queue_depth} (1024 routes waiting for the SA per
 * endpoint; past it a miss is refused: NODELAY still gets ENODATA, others ENOMEM as ibacm's failed
 * allocation), {@code client_timeout} (10000 ms for a client to send a whole request).
 * {@code server_port 0} picks a free port, which the port file then names. {@code lock_file} is
 * ibacm's (default {@code ibacm.pid} in {@code run_dir}, where ibacm's own is {@code /run/ibacm.pid}).
 * <p>
 * Every value is checked against its rule as its line is read (range, enum, the SA deadline
 * timeout x (retries + 1) at most a day), and the file is read within a size bound as strict UTF-8
 * ({@link BoundedTextFile}); the error names the file, the line, the option and the rule.
 */
public final class AcmOptions
{
    /** Compiled once: {@code String.split} with this regular expression compiles it for every line. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    public static final int DEFAULT_SERVER_PORT = 6125;
    /** Routes (and address lookups) an endpoint may have waiting for the SA before misses are refused. */
    public static final int DEFAULT_SA_QUEUE_DEPTH = 1024;
    /** How long a client may take to send a whole request after connecting or after its last one. */
    public static final int DEFAULT_CLIENT_TIMEOUT_MS = 10_000;
    public static final int MAX_TIMEOUT_MS = 3_600_000;
    public static final int MAX_RETRIES = 1000;
    /** The SA deadline, timeout x (retries + 1), at most a day: no overflow, no negative deadline. */
    public static final long MAX_SA_DEADLINE_MS = 86_400_000L;
    public static final int MAX_SA_DEPTH = 1024;
    public static final int MAX_SA_QUEUE_DEPTH = 1 << 20;
    /** A century: nanoseconds of it still fit a long with room for the clock it is added to. */
    public static final int MAX_LIFETIME_MINUTES = 52_560_000;
    public static final int MAX_LOG_LEVEL = 9;
    public static final int MAX_CLIENTS = 65_536;
    public static final int MAX_CLIENT_TIMEOUT_MS = 3_600_000;
    private static final java.util.Set<String> KNOWN = java.util.Set.of("timeout", "retries", "sa_depth",
        "sa_queue_depth", "addr_timeout", "route_timeout", "server_mode", "server_port", "acme_plus_kernel_only",
        "addr_preload", "addr_data_file", "route_preload", "route_data_file", "addr_file", "log_file", "log_level",
        "run_dir", "lock_file", "max_clients", "client_timeout", "support_ips_in_addr_cfg");

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
    private int saQueueDepth = DEFAULT_SA_QUEUE_DEPTH;
    private int clientTimeoutMs = DEFAULT_CLIENT_TIMEOUT_MS;
    private Path lockFile;
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
        for (final String line : BoundedTextFile.readLines(file, BoundedTextFile.CONFIG_MAX_BYTES))
        {
            lineNumber++;
            options.apply(line, file + ":" + lineNumber);
        }
        return options;
    }

    /**
     * Applies one line of the options file; {@code where} names it in errors. A value outside its
     * rule (range, enum, a product that would overflow) is an {@link IllegalArgumentException} naming
     * {@code where}, the option and the rule; a known name without a value too. Unknown names are
     * ignored, as ibacm ignores them (its providers read the same file).
     */
    public AcmOptions apply(final String line, final String where)
    {
        final String text = line.strip();
        if (text.isEmpty() || text.startsWith("#"))
        {
            return this;
        }
        final String[] words = WHITESPACE.split(text);
        final String name = words[0].toLowerCase(Locale.ROOT);
        if (words.length < 2)
        {
            if (KNOWN.contains(name))
            {
                throw new IllegalArgumentException(where + ": option " + name + " has no value");
            }
            return this;
        }
        final String value = words[1];
        switch (name)
        {
            case "timeout" -> timeoutMs = saDeadlineChecked(name, range(name, value, where, 1, MAX_TIMEOUT_MS), retries, where);
            case "retries" -> retries = saDeadlineChecked(name, range(name, value, where, 0, MAX_RETRIES), timeoutMs, where);
            case "sa_depth" -> saDepth = range(name, value, where, 1, MAX_SA_DEPTH);
            case "sa_queue_depth" -> saQueueDepth = range(name, value, where, 1, MAX_SA_QUEUE_DEPTH);
            case "addr_timeout" -> addrTimeoutMinutes = lifetimeMinutes(name, value, where);
            case "route_timeout" -> routeTimeoutMinutes = lifetimeMinutes(name, value, where);
            case "server_mode" -> serverMode = AcmServerMode.parse(value, where);
            case "server_port" -> serverPort = range(name, value, where, 0, 65535);
            case "acme_plus_kernel_only" -> acmePlusKernelOnly = yesNo(name, value, where);
            case "addr_preload" -> addrPreload = oneOf(name, value, where, "none", "acm_hosts");
            case "addr_data_file" -> addrDataFile = path(name, value, where);
            case "route_preload" -> routePreload = oneOf(name, value, where, "none", "opensm_full_v1");
            case "route_data_file" -> routeDataFile = path(name, value, where);
            case "addr_file" -> addrFile = path(name, value, where);
            case "log_file" ->
            {
                path(name, value, where); // "stdout" and "stderr" are names, anything else a file
                logFile = value;
            }
            case "log_level" -> logLevel = range(name, value, where, 0, MAX_LOG_LEVEL);
            case "run_dir" -> runDir = path(name, value, where);
            case "lock_file" -> lockFile = path(name, value, where);
            case "max_clients" -> maxClients = range(name, value, where, 1, MAX_CLIENTS);
            case "client_timeout" -> clientTimeoutMs = range(name, value, where, 1, MAX_CLIENT_TIMEOUT_MS);
            case "support_ips_in_addr_cfg" -> supportIpsInAddrCfg = range(name, value, where, 0, 1) != 0;
            default -> ignored.add(name);
        }
        return this;
    }

    /** A path option; one the file system cannot name (a NUL byte) is this file's error, not a bare one. */
    private static Path path(final String name, final String value, final String where)
    {
        try
        {
            return Path.of(value);
        }
        catch (final InvalidPathException ex)
        {
            throw new IllegalArgumentException(where + ": option " + name + " is no path: " + ex.getReason());
        }
    }

    private static long parseInteger(final String name, final String value, final String where)
    {
        try
        {
            return Long.decode(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": option " + name + " '" + value + "' is not an integer");
        }
    }

    private static int range(final String name, final String value, final String where, final int min, final int max)
    {
        final long number = parseInteger(name, value, where);
        if (number < min || number > max)
        {
            throw new IllegalArgumentException(where + ": option " + name + " must be " + min + ".." + max + ", got "
                + value);
        }
        return (int)number;
    }

    /** A cache lifetime: negative for never (ibacm's rule), else at most {@link #MAX_LIFETIME_MINUTES}. */
    private static int lifetimeMinutes(final String name, final String value, final String where)
    {
        final long number = parseInteger(name, value, where);
        if (number > MAX_LIFETIME_MINUTES || number < Integer.MIN_VALUE)
        {
            throw new IllegalArgumentException(where + ": option " + name + " must be negative (never expires) or 0.."
                + MAX_LIFETIME_MINUTES + " minutes, got " + value);
        }
        return (int)number;
    }

    /** {@code value}, if timeout x (retries + 1), the SA deadline, stays within {@link #MAX_SA_DEADLINE_MS}. */
    private static int saDeadlineChecked(final String name, final int value, final int other, final String where)
    {
        final int timeout = "timeout".equals(name) ? value : other;
        final int retries = "timeout".equals(name) ? other : value;
        if ((long)timeout * (retries + 1L) > MAX_SA_DEADLINE_MS)
        {
            throw new IllegalArgumentException(where + ": option " + name + " " + value + " makes timeout " + timeout
                + " ms x (retries " + retries + " + 1) longer than " + MAX_SA_DEADLINE_MS + " ms");
        }
        return value;
    }

    /** ibacm's booleans: yes/no, true/false or an integer (0 is false). */
    private static boolean yesNo(final String name, final String value, final String where)
    {
        if ("yes".equalsIgnoreCase(value) || "true".equalsIgnoreCase(value))
        {
            return true;
        }
        if ("no".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value))
        {
            return false;
        }
        try
        {
            return Long.decode(value) != 0;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": option " + name + " must be yes, no, true, false or an "
                + "integer, got '" + value + "'");
        }
    }

    /** True for {@code yes}, false for {@code no} (any case); anything else is an error naming both. */
    private static boolean oneOf(final String name, final String value, final String where, final String no,
        final String yes)
    {
        if (yes.equalsIgnoreCase(value))
        {
            return true;
        }
        if (no.equalsIgnoreCase(value))
        {
            return false;
        }
        throw new IllegalArgumentException(where + ": option " + name + " must be " + no + " or " + yes + ", got '"
            + value + "'");
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

    /** Our {@code sa_queue_depth}: routes, and address lookups, an endpoint may have waiting; the rest are refused. */
    public int saQueueDepth()
    {
        return saQueueDepth;
    }

    /**
     * Our {@code client_timeout}: a client that has not sent a whole request this long after connecting,
     * or after the first bytes of one, is closed. A client between requests is never timed out
     * (librdmacm keeps its one connection for the life of the process).
     */
    public Duration clientTimeout()
    {
        return Duration.ofMillis(clientTimeoutMs);
    }

    /** ibacm's {@code lock_file}: {@code ibacm.pid} in {@link #runDir()} unless set. */
    public Path lockFile()
    {
        return lockFile != null ? lockFile : runDir.resolve("ibacm.pid");
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

package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * rdma-core HEAD's {@code rdma_resolve_addrinfo}, {@code rdma_query_addrinfo} and
 * {@code rdma_write_cm_event} as the real librdmacm has them: {@code addrinfo_oracle.c}, compiled
 * against Debian sid's librdmacm-dev 65 headers and run under sid's own loader and libc (librdmacm 65
 * needs GLIBC_2.38), with the machine's libibverbs 44 and rxe provider behind them. {@code scripts/setup}
 * (as root) unpacks the three sid packages into {@link #CACHE}; nothing is installed. The kernel guest
 * sees the cache through the host root it shares.
 */
public final class AddrinfoOracle
{
    /** Where scripts/setup unpacks sid's librdmacm1t64, librdmacm-dev and libc6; RDMACM_LIBRDMACM_SID overrides it. */
    public static final Path CACHE = Path.of(System.getenv().getOrDefault("RDMACM_LIBRDMACM_SID",
        "/var/cache/rdmacm-java/librdmacm-sid"));
    static final String BINARY = "addrinfo_oracle";
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final String LIB = "usr/lib/x86_64-linux-gnu";

    private AddrinfoOracle()
    {
    }

    /** Whether scripts/setup has unpacked sid's packages (its {@code ready} marker is written last). */
    public static boolean available()
    {
        return Files.exists(CACHE.resolve("ready"));
    }

    /** Why the oracle is missing, and how to get it. */
    static String missing()
    {
        return CACHE + " is missing: Debian sid's librdmacm 65 (rdma_resolve_addrinfo's oracle); run scripts/setup as root";
    }

    /**
     * Compiles the oracle into {@code directory} (the guest's share) when the sid packages are there;
     * without them does nothing, and the in-guest class reports the missing peer.
     */
    public static void compileIfAvailable(final Path directory)
    {
        if (!available())
        {
            return;
        }
        final Path root = CACHE.resolve("root");
        // librdmacm 65 wants GLIBC_2.38 symbols that the host's libc lacks at link time; sid's libc has
        // them when the program runs.
        CProgram.compile(AddrinfoOracle.class, "addrinfo_oracle.c", directory, BINARY, "-O0", "-Wall",
            "-I" + root.resolve("usr/include"), "-L" + root.resolve(LIB), "-Wl,--allow-shlib-undefined", "-lrdmacm", "-libverbs",
            "-lpthread");
    }

    /** Runs the cases through the oracle at {@code binary}; fields by case name, in output order. */
    static Map<String, Map<String, String>> run(final Path binary, final List<AddrinfoCase> cases)
    {
        Peers.require(available(), missing());
        Peers.require(Files.isExecutable(binary), binary + " was not compiled (SoftRoceGuestsTest compiles it when " + CACHE +
            " exists)");
        final Path input;
        try
        {
            input = Files.createTempFile("addrinfo-oracle", ".cases");
            Files.write(input, cases.stream().map(AddrinfoCase::line).toList());
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write the oracle's cases: " + ex, ex);
        }
        final Path lib = CACHE.resolve("root").resolve(LIB);
        // stderr apart: bookworm's libnl has no symbol versions, and sid's loader says so on every start.
        final Path errors = Path.of(input + ".err");
        final String command = "'" + lib.resolve("ld-linux-x86-64.so.2") + "' --library-path '" + lib + ":/usr/lib/x86_64-linux-gnu' '" +
            binary + "' < '" + input + "' 2> '" + errors + "'";
        final String output = HostCommand.run(LIMIT, "sh", "-c", command).orFail("the librdmacm 65 addrinfo oracle (stderr in " + errors +
            ")").output();
        return KernelCmOracle.parse(output);
    }
}

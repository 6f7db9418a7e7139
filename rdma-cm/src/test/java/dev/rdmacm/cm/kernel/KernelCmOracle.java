package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The real librdmacm over the real kernel RDMA CM: {@code cm_oracle.c}, compiled with gcc on the
 * host against the installed {@code rdma/rdma_cma.h} and run inside the guest, prints for each
 * {@link CmCase} what librdmacm hands the application (events and statuses, synchronous errnos,
 * device and port, addresses with ports, the ibaddr GIDs and P_Key, every {@code ibv_sa_path_rec}
 * field) as {@code NAME key=value} lines.
 */
public final class KernelCmOracle
{
    private static final Duration LIMIT = Duration.ofMinutes(2);
    /** A run of more cases than this is a matrix, whose neighbours the oracle resolves first. */
    private static final int PRIMED = 10;

    private KernelCmOracle()
    {
    }

    /** Compiles the oracle into {@code directory} (the guest's share) and returns the binary. */
    public static Path compile(final Path directory)
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        return CProgram.compile(KernelCmOracle.class, "cm_oracle.c", directory, "cm_oracle", "-O0", "-Wall", "-lrdmacm", "-libverbs");
    }

    /** Runs every case through the oracle at {@code binary}; fields by case name, in output order. */
    public static Map<String, Map<String, String>> run(final Path binary, final List<CmCase> cases)
    {
        final Path input;
        final Path times;
        try
        {
            input = Files.createTempFile("cm-oracle", ".cases");
            times = Files.createTempFile("cm-oracle", ".times");
            Files.write(input, cases.stream().map(CmCase::oracleLine).toList());
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write the oracle's cases: " + ex, ex);
        }
        // a matrix's neighbours first, all at once (cm_oracle.c's prime): one at a time, each first contact took a case's timeout
        final String prime = cases.size() > PRIMED ? "CM_ORACLE_PRIME=1 " : "";
        final String output = HostCommand.run(LIMIT, "sh", "-c", prime + "CM_ORACLE_TIMES='" + times + "' '" + binary + "' < '" + input
            + "'").orFail("the kernel-CM oracle").output();
        reportSlowest(times);
        return parse(output);
    }

    /**
     * The slowest cases of a run of many, in the JVM's stderr: the oracle's 93 cases took 30 s of ResolutionAgainstKernelCmInGuest's
     * set-up under TCG (docs/testing.md, "The time budget").
     */
    private static void reportSlowest(final Path times)
    {
        try
        {
            final List<String[]> each = Files.readAllLines(times).stream().map(line -> line.split(" ")).filter(words -> words.length == 2)
                .sorted((a, b) -> Long.compare(Long.parseLong(b[1]), Long.parseLong(a[1]))).toList();
            if (each.size() > 10)
            {
                System.err.println("KernelCmOracle: " + each.size() + " cases in " + each.stream().mapToLong(words -> Long.parseLong(words[1]))
                    .sum() + " ms, the slowest " + each.subList(0, Math.min(15, each.size())).stream().map(words -> words[0] + " " + words[1] + " ms").toList());
            }
            Files.deleteIfExists(times);
        }
        catch (final IOException | NumberFormatException ex)
        {
            System.err.println("KernelCmOracle: no case times: " + ex);
        }
    }

    static Map<String, Map<String, String>> parse(final String output)
    {
        final Map<String, Map<String, String>> byCase = new LinkedHashMap<>();
        for (final String line : output.lines().collect(Collectors.toList()))
        {
            final int space = line.indexOf(' ');
            final int equals = line.indexOf('=', space + 1);
            if (space < 0 || equals < 0)
            {
                throw new AssertionError("the oracle printed a line that is not 'NAME key=value': " + line);
            }
            byCase.computeIfAbsent(line.substring(0, space), name -> new LinkedHashMap<>())
                .put(line.substring(space + 1, equals), line.substring(equals + 1));
        }
        return byCase;
    }
}

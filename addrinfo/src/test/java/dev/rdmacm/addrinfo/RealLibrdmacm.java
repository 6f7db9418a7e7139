package dev.rdmacm.addrinfo;

import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real librdmacm 44 {@code rdma_getaddrinfo}, run by getaddrinfo_harness.c under the fakedev.c
 * LD_PRELOAD shim, both compiled with gcc here.
 * <p>
 * The harness runs in a private mount namespace with an empty tmpfs on {@code /run}: librdmacm then
 * finds neither {@code /run/ibacm.port} nor {@code /run/ibacm.sock}, so no ACM on this machine (a real
 * ibacm, or another test's) can add a route to its answers — our side runs with {@link AcmClient#NONE}.
 * {@link Acm#at(int)} writes only the test's own ACM port into that private {@code /run/ibacm.port}.
 */
final class RealLibrdmacm
{
    private static final String RESOURCES = "/dev/rdmacm/addrinfo/";
    static final String HARNESS_BINARY = "getaddrinfo_harness";

    private RealLibrdmacm()
    {
    }

    /** Which ACM librdmacm finds, and whether its AF_IB probe succeeds (the shim's FAKE_AFIB). */
    record Acm(int port, boolean afIbSupport)
    {
        static final Acm NONE = new Acm(0, false);

        static Acm at(final int port)
        {
            return new Acm(port, false);
        }

        Acm withAfIbSupport()
        {
            return new Acm(port, true);
        }
    }

    /** One canonical output line per case, in order; {@code dir} (a JUnit temp dir) holds the build. */
    static List<String> run(final List<HarnessCase> cases, final Path dir)
    {
        return run(cases, dir, Acm.NONE);
    }

    static List<String> run(final List<HarnessCase> cases, final Path dir, final Acm acm)
    {
        Peers.requireCommand("gcc", "gcc");
        Peers.requireCommand("unshare", "util-linux");
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        Peers.requireRoot("a private mount namespace that hides /run/ibacm.* from librdmacm");
        try
        {
            Files.createDirectories(dir);
            final Path shim = dir.resolve("fakedev.so");
            final Path harness = dir.resolve("harness");
            compile(dir, "fakedev.c", List.of("gcc", "-O0", "-shared", "-fPIC", "-o", shim.toString(),
                dir.resolve("fakedev.c").toString()));
            compile(dir, "getaddrinfo_harness.c", List.of("gcc", "-O0", "-o", harness.toString(),
                dir.resolve("getaddrinfo_harness.c").toString(), "-lrdmacm"));
            final StringBuilder input = new StringBuilder();
            for (final HarnessCase harnessCase : cases)
            {
                input.append(harnessCase.inputLine()).append('\n');
            }
            final String output = runInPrivateRun(shim, harness, acm, input.toString());
            final List<String> lines = output.lines().toList();
            if (lines.size() != cases.size())
            {
                throw new AssertionError("harness printed " + lines.size() + " lines for " + cases.size() + " cases:\n" + output);
            }
            return lines;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot build or run the librdmacm harness: " + ex, ex);
        }
    }

    /** Compiles the harness alone into {@code dir} (for a guest with real devices, where no shim is wanted). */
    static Path compileHarness(final Path dir)
    {
        Peers.requireCommand("gcc", "gcc");
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        final Path harness = dir.resolve(HARNESS_BINARY);
        try
        {
            Files.createDirectories(dir);
            compile(dir, "getaddrinfo_harness.c", List.of("gcc", "-O0", "-o", harness.toString(),
                dir.resolve("getaddrinfo_harness.c").toString(), "-lrdmacm"));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot build the librdmacm harness: " + ex, ex);
        }
        return harness;
    }

    /**
     * The harness at {@code harness} over this machine's real RDMA devices, with no shim: what a kernel
     * guest with Soft-RoCE answers. The harness is copied to {@code dir} first, because the private
     * {@code /run} hides the guest's share.
     */
    static List<String> runOnRealDevices(final List<HarnessCase> cases, final Path harness, final Path dir)
    {
        Peers.requireCommand("unshare", "util-linux");
        Peers.requireRoot("a private mount namespace that hides /run/ibacm.* from librdmacm");
        try
        {
            final Path copy = Files.copy(harness, dir.resolve(HARNESS_BINARY));
            copy.toFile().setExecutable(true);
            final StringBuilder input = new StringBuilder();
            cases.forEach(c -> input.append(c.inputLine()).append('\n'));
            final String output = runInPrivateRun(null, copy, Acm.NONE, input.toString());
            final List<String> lines = output.lines().toList();
            if (lines.size() != cases.size())
            {
                throw new AssertionError("harness printed " + lines.size() + " lines for " + cases.size() + " cases:\n" + output);
            }
            return lines;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot run the librdmacm harness: " + ex, ex);
        }
    }

    private static void compile(final Path dir, final String source, final List<String> command) throws IOException
    {
        try (InputStream in = RealLibrdmacm.class.getResourceAsStream(RESOURCES + source))
        {
            if (in == null)
            {
                throw new AssertionError("test resource " + RESOURCES + source + " missing");
            }
            Files.copy(in, dir.resolve(source));
        }
        final ProcessResult result = exec(new ProcessBuilder(command).redirectErrorStream(true), "");
        if (result.exitCode != 0)
        {
            throw new AssertionError("gcc failed on " + source + ":\n" + result.stdout);
        }
    }

    private static String runInPrivateRun(final Path shim, final Path harness, final Acm acm, final String input)
        throws IOException
    {
        final String script = "mount -t tmpfs rdmacm-test-run /run && " +
            "test ! -e /run/ibacm.port && test ! -e /run/ibacm.sock && " +
            "if [ \"$RDMACM_TEST_ACM_PORT\" != 0 ]; then echo \"$RDMACM_TEST_ACM_PORT\" > /run/ibacm.port; fi && " +
            "exec env FAKE_AFIB=\"$RDMACM_TEST_FAKE_AFIB\" LD_PRELOAD=\"$RDMACM_TEST_SHIM\" \"$RDMACM_TEST_HARNESS\"";
        final ProcessBuilder builder = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c", script);
        builder.environment().put("RDMACM_TEST_ACM_PORT", Integer.toString(acm.port()));
        builder.environment().put("RDMACM_TEST_FAKE_AFIB", acm.afIbSupport() ? "1" : "0");
        // No shim (null): an empty LD_PRELOAD, so librdmacm sees the machine's real devices.
        builder.environment().put("RDMACM_TEST_SHIM", shim == null ? "" : shim.toString());
        builder.environment().put("RDMACM_TEST_HARNESS", harness.toString());
        builder.redirectError(ProcessBuilder.Redirect.PIPE);
        final ProcessResult result = exec(builder, input);
        if (result.exitCode != 0)
        {
            throw new AssertionError("harness exited with " + result.exitCode + ": " + result.stderr);
        }
        return result.stdout;
    }

    private record ProcessResult(int exitCode, String stdout, String stderr)
    {
    }

    private static ProcessResult exec(final ProcessBuilder builder, final String input) throws IOException
    {
        final Process process = builder.start();
        try
        {
            final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            final CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
            try (OutputStream stdin = process.getOutputStream())
            {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(120, TimeUnit.SECONDS))
            {
                throw new AssertionError(builder.command().getFirst() + " did not finish in 120 s");
            }
            return new ProcessResult(process.exitValue(), stdout.join(), stderr.join());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + builder.command().getFirst(), ex);
        }
        finally
        {
            if (process.isAlive())
            {
                process.destroyForcibly();
            }
        }
    }

    private static String readAll(final InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(unreadable: " + ex + ")";
        }
    }
}

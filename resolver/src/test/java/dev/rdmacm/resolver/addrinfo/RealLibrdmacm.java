package dev.rdmacm.resolver.addrinfo;

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
 */
final class RealLibrdmacm
{
    private static final String RESOURCES = "/dev/rdmacm/resolver/addrinfo/";

    private RealLibrdmacm()
    {
    }

    /** One canonical output line per case, in order; {@code dir} (a JUnit temp dir) holds the build. */
    static List<String> run(final List<HarnessCase> cases, final Path dir)
    {
        Peers.requireCommand("gcc", "gcc");
        Peers.requireCommand("unshare", "util-linux");
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        Peers.requireRoot("a private mount namespace that hides /run/ibacm.* from librdmacm");
        try
        {
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
            final String output = runInPrivateRun(shim, harness, input.toString());
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

    private static String runInPrivateRun(final Path shim, final Path harness, final String input) throws IOException
    {
        final String script = "mount -t tmpfs rdmacm-test-run /run && " +
            "test ! -e /run/ibacm.port && test ! -e /run/ibacm.sock && " +
            "exec env LD_PRELOAD=\"$0\" \"$1\"";
        final ProcessBuilder builder = new ProcessBuilder("unshare", "--mount", "--propagation", "private",
            "sh", "-c", script, shim.toString(), harness.toString());
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

package dev.rdmacm.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A C program compiled with gcc at test time against the installed headers and run once: the oracle
 * for every size, offset, constant and byte layout that this project writes by hand.
 */
public final class CProgram
{
    private CProgram()
    {
    }

    /**
     * Compiles {@code source} with {@code gcc -O0 -w} plus {@code extraFlags}, runs it and returns its
     * standard output. Fails the test with gcc's own diagnostics when compilation fails.
     */
    public static String compileAndRun(final String source, final String... extraFlags)
    {
        Peers.requireCommand("gcc", "gcc");
        Path dir = null;
        try
        {
            dir = Files.createTempDirectory("rdmacm-cprog");
            final Path c = dir.resolve("probe.c");
            final Path exe = dir.resolve("probe");
            Files.writeString(c, source, StandardCharsets.UTF_8);
            final List<String> command = new ArrayList<>(List.of("gcc", "-O0", "-w", "-o", exe.toString(), c.toString()));
            command.addAll(List.of(extraFlags));
            final String compiled = run(command);
            if (!Files.isExecutable(exe))
            {
                throw new AssertionError("gcc failed:\n" + compiled + "\n--- source ---\n" + source);
            }
            return run(List.of(exe.toString()));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot compile or run a C probe: " + ex, ex);
        }
        finally
        {
            deleteTree(dir);
        }
    }

    /**
     * Compiles the C source {@code resource} (found beside {@code owner}) with gcc and {@code flags} into
     * {@code directory}/{@code binaryName}, and returns the binary: for a test double or an oracle that a
     * test runs itself, on the host or inside a kernel guest. Fails the test with gcc's diagnostics.
     * <p>
     * A binary that this method already built in {@code directory} from the same source bytes with the
     * same command is returned as it is: two tests of one guest that use the same program, or a host
     * runner that compiles it ahead while the guest boots, cost one gcc run. The record of what it was
     * built from is {@code binaryName.built}, written only after gcc succeeded.
     */
    public static Path compile(final Class<?> owner, final String resource, final Path directory, final String binaryName,
        final String... flags)
    {
        Peers.requireCommand("gcc", "gcc");
        final Path source = directory.resolve(resource);
        final Path binary = directory.resolve(binaryName);
        final Path built = directory.resolve(binaryName + ".built");
        final byte[] bytes;
        try (InputStream in = owner.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new AssertionError(resource + " is not on the test class path beside " + owner.getName());
            }
            bytes = in.readAllBytes();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read " + resource + ": " + ex, ex);
        }
        final List<String> command = new ArrayList<>(List.of("gcc", "-o", binary.toString(), source.toString()));
        command.addAll(List.of(flags));
        final String record = String.join(" ", command) + "\nsource sha-256 " + sha256(bytes) + "\n";
        synchronized (CProgram.class)
        {
            try
            {
                if (Files.isExecutable(binary) && Files.exists(built) && Files.readString(built).equals(record))
                {
                    return binary;
                }
                Files.deleteIfExists(built);
                Files.createDirectories(directory);
                Files.write(source, bytes);
            }
            catch (final IOException ex)
            {
                throw new AssertionError("cannot write " + source + ": " + ex, ex);
            }
        }
        HostCommand.run(Duration.ofMinutes(2), directory, command).orFail("compiling " + resource);
        try
        {
            Files.writeString(built, record);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write " + built + ": " + ex, ex);
        }
        return binary;
    }

    private static String sha256(final byte[] bytes)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new AssertionError("the JDK lacks SHA-256", ex);
        }
    }

    private static String run(final List<String> command)
    {
        return HostCommand.run(Duration.ofSeconds(60), null, command).output();
    }

    private static void deleteTree(final Path dir)
    {
        if (dir == null)
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temp directory left behind is not worth failing a test for
        }
    }
}

package dev.rdmacm.sa.transport.ibsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where umad2sim's preload library is: the {@code LD_PRELOAD} that lets an unmodified umad program
 * (OpenSM, saquery) attach to an ibsim fabric. Debian's libumad2sim0 installs it under
 * {@code /usr/lib/<multiarch triplet>/umad2sim/}, so the triplet directories are searched rather than
 * one architecture's path assumed.
 */
public final class Umad2simLibrary
{
    private static final String LIBRARY = "umad2sim/libumad2sim.so";

    private Umad2simLibrary()
    {
    }

    /**
     * The library this machine has; when it has none, the path it would have on x86-64, so that a
     * caller's "missing" message names a real place and the package (libumad2sim0, from ibsim-utils).
     */
    public static Path find()
    {
        return find(Path.of("/"));
    }

    /** As {@link #find()}, below {@code root} instead of {@code /}. */
    static Path find(final Path root)
    {
        final List<Path> candidates = new ArrayList<>();
        try (Stream<Path> libDirs = Files.list(root.resolve("usr/lib")))
        {
            // The multiarch triplets (x86_64-linux-gnu, aarch64-linux-gnu, ...), sorted for a stable choice.
            libDirs.filter(Files::isDirectory).sorted().forEach(dir -> candidates.add(dir.resolve(LIBRARY)));
        }
        catch (final IOException ex)
        {
            // No /usr/lib to list: the fixed places below remain.
        }
        candidates.add(root.resolve("usr/lib").resolve(LIBRARY));
        candidates.add(root.resolve("usr/lib64").resolve(LIBRARY));
        candidates.add(root.resolve("usr/local/lib").resolve(LIBRARY));
        return candidates.stream().filter(Files::isRegularFile).findFirst()
            .orElse(root.resolve("usr/lib/x86_64-linux-gnu").resolve(LIBRARY));
    }
}

package dev.rdmacm.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * This JVM's open file descriptors, each with the file it is open on ({@code /proc/self/fd}'s links), taken
 * before a test opens anything, to find what the test left open once it has closed everything.
 * <p>
 * A count cannot tell that: the JVM closes descriptors of its own on other threads at any time (the process
 * reaper a finished command's pipes, a {@code Cleaner} an unreachable stream's descriptor), so a count after the
 * close can fall below the one before, or equal it with a leak hidden by such a close. On 6 December 2026 a CI
 * run failed {@code KernelCmUnavailableTest} with 54 descriptors before and 53 after, and nothing had leaked.
 * A descriptor counts as left open when its number was closed before, or open on another file: a leak that takes
 * the number of a descriptor closed meanwhile, on a file of the same name, is the one case this misses (two
 * eventfds are both {@code anon_inode:[eventfd]}).
 */
public final class OpenDescriptors
{
    private static final Path FDS = Path.of("/proc/self/fd");
    /** Where the listing's own descriptor points while it lists, as {@code /proc/self} resolves. */
    private static final String LISTING = "/proc/" + ProcessHandle.current().pid() + "/fd";

    private final Map<Integer, String> files;

    private OpenDescriptors(final Map<Integer, String> files)
    {
        this.files = files;
    }

    /** The descriptors open now, by number. */
    public static OpenDescriptors now()
    {
        final Map<Integer, String> files = new TreeMap<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS))
        {
            for (final Path fd : fds)
            {
                final String file = fileOf(fd);
                if (file != null && !file.equals(LISTING))
                {
                    files.put(Integer.parseInt(fd.getFileName().toString()), file);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + FDS, ex);
        }
        return new OpenDescriptors(files);
    }

    /**
     * The descriptors open now that were not open, on the same file, in {@code before}: {@code "fd -> file"}, by
     * number, empty when nothing was left open.
     */
    public static List<String> openedSince(final OpenDescriptors before)
    {
        final List<String> opened = new ArrayList<>();
        now().files.forEach((fd, file) ->
        {
            if (!file.equals(before.files.get(fd)))
            {
                opened.add(fd + " -> " + file);
            }
        });
        return opened;
    }

    /** Where {@code fd} points, or null for a descriptor closed since the listing (the listing's own, at least). */
    private static String fileOf(final Path fd)
    {
        try
        {
            return Files.readSymbolicLink(fd).toString();
        }
        catch (final IOException closed)
        {
            return null;
        }
    }

    @Override
    public String toString()
    {
        return files.toString();
    }
}

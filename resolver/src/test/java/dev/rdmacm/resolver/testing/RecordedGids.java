package dev.rdmacm.resolver.testing;

import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * GID directories read by the verbs module's sysfs reader from the recorded trees of its test jar:
 * the soft-RoCE {@code rxe0} bound to {@value RecordedSysfsTrees#SOFT_ROCE_NETDEV}, which
 * {@link NamespaceTopology} recreates in the host namespace with the same MAC and addresses, and the
 * InfiniBand {@code mlx5_0}.
 */
public final class RecordedGids
{
    private RecordedGids()
    {
    }

    public static SysfsGidDirectory softRoce()
    {
        return read(RecordedSysfsTrees.SOFT_ROCE);
    }

    public static SysfsGidDirectory infinibandHca()
    {
        return read(RecordedSysfsTrees.IB_HCA);
    }

    /** Reads the trees from a temporary sysfs root, deleted again once read (the reader keeps nothing open). */
    private static SysfsGidDirectory read(final String... trees)
    {
        Path root = null;
        try
        {
            root = Files.createTempDirectory("rdmacm-sysfs");
            return SysfsGidDirectory.read(RecordedSysfsTrees.copy(root, trees));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary sysfs root", ex);
        }
        finally
        {
            delete(root);
        }
    }

    private static void delete(final Path root)
    {
        if (root == null)
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temporary directory left behind is not worth failing a test for
        }
    }
}

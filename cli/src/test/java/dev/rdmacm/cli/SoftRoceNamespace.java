package dev.rdmacm.cli;

import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the CLI's RoCE tests run in: the namespace fixture, whose RDMA netdev is the one of the
 * recorded soft-RoCE sysfs tree, and a copy of that tree for {@code SYSFS_PATH}. Removed on close.
 */
final class SoftRoceNamespace implements AutoCloseable
{
    final Path sysfs;
    final NamespaceTopology topology;

    private SoftRoceNamespace(final Path sysfs, final NamespaceTopology topology)
    {
        this.sysfs = sysfs;
        this.topology = topology;
    }

    static SoftRoceNamespace create()
    {
        final Path sysfs;
        try
        {
            sysfs = Files.createTempDirectory("rdmacm-sysfs");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.SOFT_ROCE);
        return new SoftRoceNamespace(sysfs, NamespaceTopology.create());
    }

    @Override
    public void close()
    {
        topology.close();
        try (Stream<Path> files = Files.walk(sysfs))
        {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}

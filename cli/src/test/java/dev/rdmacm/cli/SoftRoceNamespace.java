package dev.rdmacm.cli;

import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the CLI's RoCE tests run in, as a class-level extension ({@code @RegisterExtension static}):
 * the namespace fixture, whose RDMA netdev is the one of the recorded soft-RoCE sysfs tree, and a copy
 * of that tree for {@code SYSFS_PATH}. Both are removed after the class.
 */
final class SoftRoceNamespace implements BeforeAllCallback, AfterAllCallback
{
    private Path sysfs;
    private NamespaceTopology topology;

    @Override
    public void beforeAll(final ExtensionContext context) throws IOException
    {
        sysfs = Files.createTempDirectory("rdmacm-sysfs");
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.SOFT_ROCE);
        topology = NamespaceTopology.create();
    }

    @Override
    public void afterAll(final ExtensionContext context) throws IOException
    {
        if (topology != null)
        {
            topology.close();
        }
        if (sysfs != null)
        {
            try (Stream<Path> files = Files.walk(sysfs))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    Path sysfs()
    {
        return sysfs;
    }

    NamespaceTopology topology()
    {
        return topology;
    }
}

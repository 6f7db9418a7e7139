package dev.rdmacm.benchmarks;

import dev.rdmacm.resolver.spi.FixedGidDirectory;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.verbs.GidType;

import java.nio.file.Path;
import java.util.List;

/**
 * The namespace that {@code benchmarks/run-resolver-bench} builds: a0 10.1.0.1/16 with a PERMANENT
 * neighbour 10.1.0.2 (the peer's b0), and a2 10.2.0.1/16 whose peer never answers.
 */
final class BenchNamespace
{
    static final String PROPERTY = "rdmacm.bench.netns";
    static final String VALID_NEIGHBOUR = "10.1.0.2";

    private BenchNamespace()
    {
    }

    static Path path()
    {
        final String name = System.getProperty(PROPERTY);
        if (name == null)
        {
            throw new IllegalStateException("-D" + PROPERTY + "=NAME is not set: run benchmarks/run-resolver-bench, " +
                "which builds the namespaces and passes their name");
        }
        return NetworkNamespace.byName(name);
    }

    /** rxe0 port 1 as it would be if bound to a0 and a2. */
    static GidDirectory gids()
    {
        return new FixedGidDirectory(List.of(
            new RdmaPortBinding("rxe0", 1, 1, Gid.parse("::ffff:10.1.0.1"), GidType.ROCE_V2, "a0", PKey.of(0xffff)),
            new RdmaPortBinding("rxe0", 1, 2, Gid.parse("::ffff:10.2.0.1"), GidType.ROCE_V2, "a2", PKey.of(0xffff))));
    }
}

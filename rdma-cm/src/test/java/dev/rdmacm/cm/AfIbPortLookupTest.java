package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code cma_resolve_ib_dev} over the recorded sysfs trees of a real soft-RoCE device and a real
 * InfiniBand HCA: RoCE ports have the AF_IB capability, so a link-local destination lands on the
 * soft-RoCE port's first fe80:: entry, as the 6.1 kernel in the guest does it (SoftRoceGuestsTest,
 * case af-ib-on-roce).
 */
class AfIbPortLookupTest
{
    @Test
    void shouldTakeTheFirstEntryOfTheDestinationsSubnetOnASoftRocePort()
    {
        final Optional<RdmaPortBinding> found = RecordedGids.softRoce().findAfIbPort(Gid.parse("fe80::2"), PKey.DEFAULT);

        assertEquals(RecordedSysfsTrees.SOFT_ROCE_LINK_LOCAL_GID, found.orElseThrow().gid());
        assertEquals(0, found.get().gidIndex(), "the first entry in index order, whatever its GID type");
    }

    @Test
    void shouldFindNoPortForAnotherSubnetOrAPkeyNoPortHolds()
    {
        final SysfsGidDirectory gids = RecordedGids.softRoce();

        assertEquals(Optional.empty(), gids.findAfIbPort(Gid.parse("2001:db8:99::1"), PKey.DEFAULT));
        assertEquals(Optional.empty(), gids.findAfIbPort(Gid.parse("fe80::2"), 0x7001));
    }

    @Test
    void shouldTakeTheDestinationsOwnEntryOnAnInfinibandPort()
    {
        final Optional<RdmaPortBinding> found = RecordedGids.infinibandHca()
            .findAfIbPort(RecordedSysfsTrees.IB_HCA_PORT1_GID, PKey.DEFAULT);

        assertEquals(RecordedSysfsTrees.IB_HCA_PORT1_GID, found.orElseThrow().gid());
    }
}

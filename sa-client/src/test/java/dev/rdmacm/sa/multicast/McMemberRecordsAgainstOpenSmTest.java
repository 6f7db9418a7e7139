package dev.rdmacm.sa.multicast;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.McMemberRecord.JoinState;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * MCMemberRecord Set and Delete through OpenSM's SA on ibsim, with the kernel's masks; what OpenSM holds
 * afterwards is read back with saquery (an independent client), as one record per member ({@code --smkey 1}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McMemberRecordsAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }

    private static SaClient attach(final String node)
    {
        return OpenSmGroups.attach(fabric(), node);
    }

    private static Map<String, String> member(final String asNode, final Gid mgid, final Gid port)
    {
        return OpenSmGroups.member(fabric(), asNode, mgid, port);
    }

    @Test
    void shouldListOurPortAsMemberWithTheJoinStateAskedForUntilItLeaves() throws Exception
    {
        final FabricPort port = fabric().port("Hca2");
        final Gid mgid = Gid.parse("ff12:4001:ffff::f01:203");
        try (SaClient sa = attach("Hca2"))
        {
            final McMemberRecordValue broadcast = McMemberRecords.group(sa, OpenSmGroups.IPOIB_BROADCAST, TIMEOUT).join();
            final McMemberRecordValue joined = McMemberRecords.join(sa,
                OpenSmGroups.kernelJoin(broadcast, mgid, port.gid(), JoinState.SEND_ONLY_FULL_MEMBER),
                McMemberRecordComponentMask.KERNEL_JOIN, TIMEOUT).join();

            assertEquals(mgid, joined.mgid());
            assertEquals(OpenSmGroups.RDMA_UDP_QKEY, joined.qkey());
            assertEquals(JoinState.SEND_ONLY_FULL_MEMBER, joined.joinState());
            final Map<String, String> listed = member("Hca3", mgid, port.gid());
            assertEquals(JoinState.SEND_ONLY_FULL_MEMBER, listed == null ? -1 : OpenSmGroups.joinState(listed), OpenSmGroups.members(fabric(), "Hca3").toString());
            assertEquals(String.format("0x%X", joined.mlid()), listed.get("Mlid"));

            final McMemberRecordValue left = McMemberRecords.leave(sa, mgid, port.gid(), JoinState.SEND_ONLY_FULL_MEMBER,
                TIMEOUT).join();

            assertEquals(0, left.joinState());
            assertEquals(null, member("Hca3", mgid, port.gid()));
        }
    }

    @Test
    void shouldGiveTwoPortsJoiningOneGroupTheSameMlidAndQkey() throws Exception
    {
        final Gid mgid = Gid.parse("ff12:4001:ffff::f01:204");
        try (SaClient first = attach("Hca3"); SaClient second = attach("Hca4"))
        {
            final McMemberRecordValue broadcast = McMemberRecords.group(first, OpenSmGroups.IPOIB_BROADCAST, TIMEOUT).join();
            final Gid firstPort = fabric().port("Hca3").gid();
            final Gid secondPort = fabric().port("Hca4").gid();
            final McMemberRecordValue a = McMemberRecords.join(first, OpenSmGroups.kernelJoin(broadcast, mgid, firstPort,
                JoinState.FULL_MEMBER), McMemberRecordComponentMask.KERNEL_JOIN, TIMEOUT).join();
            final McMemberRecordValue b = McMemberRecords.join(second, OpenSmGroups.kernelJoin(broadcast, mgid, secondPort,
                JoinState.FULL_MEMBER), McMemberRecordComponentMask.KERNEL_JOIN, TIMEOUT).join();
            try
            {
                assertEquals(a.mlid(), b.mlid());
                assertEquals(a.qkey(), b.qkey());
                assertEquals(String.format("0x%X", a.mlid()), member("Hca2", mgid, secondPort).get("Mlid"));
                assertEquals(JoinState.FULL_MEMBER, OpenSmGroups.joinState(member("Hca2", mgid, firstPort)));
            }
            finally
            {
                McMemberRecords.leave(first, mgid, firstPort, JoinState.FULL_MEMBER, TIMEOUT).join();
                McMemberRecords.leave(second, mgid, secondPort, JoinState.FULL_MEMBER, TIMEOUT).join();
            }
        }
    }

    @Test
    void shouldFailAJoinWithAnotherQkeyThanTheGroupsWithEinval()
    {
        final FabricPort port = fabric().port("Hca2");
        try (SaClient sa = attach("Hca2"))
        {
            final McMemberRecordValue broadcast = McMemberRecords.group(sa, OpenSmGroups.IPOIB_BROADCAST, TIMEOUT).join();

            final CompletionException ex = assertThrows(CompletionException.class, () -> McMemberRecords.join(sa,
                OpenSmGroups.kernelJoin(broadcast, OpenSmGroups.IPOIB_BROADCAST, port.gid(), JoinState.FULL_MEMBER),
                McMemberRecordComponentMask.KERNEL_JOIN, TIMEOUT).join());

            assertEquals(-Errno.EINVAL, McMemberRecords.kernelStatus(ex));
            assertEquals(null, member("Hca3", OpenSmGroups.IPOIB_BROADCAST, port.gid()));
        }
    }
}

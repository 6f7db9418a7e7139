package dev.rdmacm.sa.multicast;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What the multicast tests ask of a simulated fabric: an SA client per node, the records to join with, saquery's view. */
final class OpenSmGroups
{
    /** The IPoIB broadcast group OpenSM makes at start for the default partition. */
    static final Gid IPOIB_BROADCAST = Gid.parse("ff12:401b:ffff::ffff:ffff");
    /** rdma_cm's {@code RDMA_UDP_QKEY}. */
    static final long RDMA_UDP_QKEY = 0x0123_4567L;

    private OpenSmGroups()
    {
    }

    static SaClient attach(final SimulatedFabric fabric, final String node)
    {
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), node, Duration.ofSeconds(2)),
            SaClientConfig.defaults());
    }

    /** The record cma_join_ib_multicast sends: the broadcast group's SL, FlowLabel, TClass; our MGID, port, P_Key, Q_Key. */
    static McMemberRecordValue kernelJoin(final McMemberRecordValue broadcast, final Gid mgid, final Gid port, final int state)
    {
        return broadcast.withMgid(mgid).withPortGid(port).withPKey(0xffff).withQkey(RDMA_UDP_QKEY).withJoinState(state);
    }

    /** saquery -m --smkey 1: OpenSM's members, one map per (group, port). */
    static List<Map<String, String>> members(final SimulatedFabric fabric, final String asNode)
    {
        return fabric.saquery(asNode, "-m", "--smkey", "1").records();
    }

    /** saquery's record of {@code port} in {@code mgid}, or null when OpenSM holds none. */
    static Map<String, String> member(final SimulatedFabric fabric, final String asNode, final Gid mgid, final Gid port)
    {
        return members(fabric, asNode).stream()
            .filter(r -> Gid.parse(r.get("MGID")).equals(mgid) && Gid.parse(r.get("PortGid")).equals(port))
            .findFirst().orElse(null);
    }

    /** The JoinState nibble of saquery's ScopeState (the scope, from the MGID, is the high nibble). */
    static int joinState(final Map<String, String> member)
    {
        return Integer.decode(member.get("ScopeState")) & 0xf;
    }
}

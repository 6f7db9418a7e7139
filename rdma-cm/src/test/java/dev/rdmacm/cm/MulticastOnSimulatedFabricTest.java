package dev.rdmacm.cm;

import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.sa.McMemberRecord.JoinState;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.multicast.McMemberRecordValue;
import dev.rdmacm.sa.multicast.McMemberRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.FaultInjectingTransport;
import dev.rdmacm.sa.testing.Faults;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.testing.Tshark;
import dev.rdmacm.verbs.AddressVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdma_join_multicast_ex} and {@code rdma_leave_multicast} on InfiniBand against OpenSM on ibsim:
 * what OpenSM holds afterwards is read with saquery ({@code -m --smkey 1}, one record per member), the
 * MADs decode in tshark. The only test double is {@link McMemberSetDroppingTransport}, for a lost Set.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MulticastOnSimulatedFabricTest
{
    private static final Duration EVENT = Duration.ofSeconds(10);
    private static final long RDMA_UDP_QKEY = 0x0123_4567L;
    private static SimulatedFabric fabric;
    private static HostsFile hosts;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
        hosts = HostsFile.read(FabricHosts.write(fabric, dir));
    }

    @AfterAll
    static void stop()
    {
        if (fabric != null)
        {
            fabric.close();
        }
    }

    private static SaClient attach(final FabricPort port, final SaClientConfig config, final Function<MadTransport, MadTransport> wrap)
    {
        return SaClient.start(wrap.apply(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), port.node(),
            Duration.ofSeconds(2))), config);
    }

    private static SaClient attach(final FabricPort port)
    {
        return attach(port, SaClientConfig.defaults(), transport -> transport);
    }

    private static RdmaCm open(final FabricPort port, final SaClient sa) throws RdmaCmException
    {
        return RdmaCm.open(RdmaCm.Options.builder()
            .hostsNeighbours(new HostsNeighbours(hosts, HostsNeighbours.infinibandPort(port.node(), 1, port.gid())))
            .sa(sa).build());
    }

    /** A UD id bound to {@code port}'s address. */
    private static RdmaCmId boundUdId(final RdmaCm cm, final EventChannel channel, final FabricPort port) throws Exception
    {
        final RdmaCmId id = cm.createId(channel, PortSpace.UDP);
        id.bindAddr(FabricHosts.address(port));
        return id;
    }

    private static CmEvent next(final EventChannel channel) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(EVENT);
        if (event != null)
        {
            event.ack();
        }
        return event;
    }

    private static Map<String, String> member(final Gid mgid, final Gid port)
    {
        return fabric.saquery("Hca1", "-m", "--smkey", "1").records().stream()
            .filter(r -> Gid.parse(r.get("MGID")).equals(mgid) && Gid.parse(r.get("PortGid")).equals(port))
            .findFirst().orElse(null);
    }

    /** The Delete leaves after the call returns: saquery until OpenSM no longer lists the port. */
    private static Map<String, String> memberAfterLeave(final Gid mgid, final Gid port) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Map<String, String> listed = member(mgid, port);
        while (listed != null && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
            listed = member(mgid, port);
        }
        return listed;
    }

    private static int joinState(final Map<String, String> member)
    {
        return Integer.decode(member.get("ScopeState")) & 0xf;
    }

    @Test
    void shouldBeListedBySaqueryWithTheJoinStateAskedForUntilTheLeave() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        final Gid mgid = Gid.parse("ff12:4001:ffff::f01:203");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId full = boundUdId(cm, channel, port); RdmaCmId sendOnly = boundUdId(cm, channel, port))
        {
            final Object context = "the application's context";
            full.join(InetAddress.getByName("239.1.2.3"), MulticastJoinFlag.FULL_MEMBER, context);
            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            assertEquals(full, joined.id());
            assertEquals(context, joined.context());
            assertEquals(0xff_ffff, joined.ud().qpNumber());
            assertEquals(RDMA_UDP_QKEY, joined.ud().qkey());
            final AddressVector ah = joined.ud().ahAttr();
            assertEquals(mgid, ah.grh().orElseThrow().dgid());
            final Map<String, String> listed = member(mgid, port.gid());
            assertEquals(JoinState.FULL_MEMBER, joinState(listed));
            assertEquals(String.format("0x%X", ah.dlid()), listed.get("Mlid"));

            sendOnly.join(InetAddress.getByName("239.1.2.3"), MulticastJoinFlag.SEND_ONLY_FULL_MEMBER, null);
            assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertEquals(JoinState.FULL_MEMBER | JoinState.SEND_ONLY_FULL_MEMBER, joinState(member(mgid, port.gid())));

            full.leave(InetAddress.getByName("239.1.2.3"));
            sendOnly.leave(InetAddress.getByName("239.1.2.3"));

            assertNull(memberAfterLeave(mgid, port.gid()));
        }
    }

    @Test
    void shouldCarryTheGroupsRecordInTheJoinEventAsTheKernelBuildsItsAddressHandle() throws Exception
    {
        final FabricPort port = fabric.port("Hca3");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port))
        {
            id.join(InetAddress.getByName("239.1.2.5"), MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            final McMemberRecordValue group = McMemberRecords.join(sa, McMemberRecordValue.of(
                Gid.parse("ff12:4001:ffff::f01:205"), port.gid(), JoinState.FULL_MEMBER), McMemberRecordComponentMask.MGID |
                McMemberRecordComponentMask.PORT_GID | McMemberRecordComponentMask.JOIN_STATE, Duration.ofSeconds(3)).join();

            final AddressVector ah = joined.ud().ahAttr();
            assertEquals(new AddressVector(1, group.mlid(), group.sl(), 0, group.rate(), java.util.Optional.of(
                new AddressVector.GlobalRoute(group.mgid(), 0, group.hopLimit(), group.tClass(), group.flowLabel()))), ah);
            id.leave(InetAddress.getByName("239.1.2.5"));
        }
    }

    @Test
    void shouldGiveTwoPortsJoiningOneGroupTheSameMlidAndQkey() throws Exception
    {
        final FabricPort first = fabric.port("Hca2");
        final FabricPort second = fabric.port("Hca4");
        try (SaClient sa1 = attach(first); RdmaCm cm1 = open(first, sa1); EventChannel channel1 = cm1.createEventChannel();
             RdmaCmId id1 = boundUdId(cm1, channel1, first);
             SaClient sa2 = attach(second); RdmaCm cm2 = open(second, sa2); EventChannel channel2 = cm2.createEventChannel();
             RdmaCmId id2 = boundUdId(cm2, channel2, second))
        {
            final InetAddress group = InetAddress.getByName("239.7.7.7");
            id1.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            id2.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin a = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel1));
            final CmEvent.MulticastJoin b = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel2));

            assertEquals(a.ud().ahAttr().dlid(), b.ud().ahAttr().dlid());
            assertEquals(a.ud().qkey(), b.ud().qkey());
            assertEquals(a.ud().ahAttr().grh().orElseThrow().dgid(), b.ud().ahAttr().grh().orElseThrow().dgid());
        }
    }

    @Test
    void shouldSendNoSecondSetWhenASecondIdOfThePortJoinsTheGroup() throws Exception
    {
        final FabricPort port = fabric.port("Hca3");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId first = boundUdId(cm, channel, port); RdmaCmId second = boundUdId(cm, channel, port))
        {
            final InetAddress group = InetAddress.getByName("239.3.3.3");
            first.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin a = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            final long queries = sa.counters().get(SaCounter.QUERIES_SUBMITTED);

            second.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin b = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            assertEquals(queries, sa.counters().get(SaCounter.QUERIES_SUBMITTED));
            assertEquals(a.ud(), b.ud());
            first.leave(group);
            assertEquals(queries, sa.counters().get(SaCounter.QUERIES_SUBMITTED));
            second.leave(group);
            assertNull(memberAfterLeave(a.ud().ahAttr().grh().orElseThrow().dgid(), port.gid()));
        }
    }

    @Test
    void shouldHaveTheSaMakeTheMgidOfAWildcardGroup() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port))
        {
            id.join(InetAddress.getByName("0.0.0.0"), MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            final Gid made = joined.ud().ahAttr().grh().orElseThrow().dgid();
            assertEquals(0xff10_a01bL, (made.subnetPrefix() >>> 32) & 0xfff0_ffffL, made.toString());
            assertEquals(JoinState.FULL_MEMBER, joinState(member(made, port.gid())));
            id.leave(InetAddress.getByName("0.0.0.0"));
            assertNull(memberAfterLeave(made, port.gid()));
        }
    }

    @Test
    void shouldJoinAUnicastAddressAsTheKernelDoesWithoutChecking() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port))
        {
            id.join(FabricHosts.address(fabric.port("Hca3")), MulticastJoinFlag.FULL_MEMBER, null);
            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            assertEquals(Gid.parse("ff12:4001:ffff::a00:5"), joined.ud().ahAttr().grh().orElseThrow().dgid());
            id.leave(FabricHosts.address(fabric.port("Hca3")));
        }
    }

    @Test
    void shouldRefuseAJoinOnAnRcIdWithEinval() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); RdmaCmId id = cm.createId(null, PortSpace.TCP))
        {
            id.bindAddr(FabricHosts.address(port));

            final RdmaCmException ex = assertThrows(RdmaCmException.class,
                () -> id.join(InetAddress.getByName("239.1.2.3"), MulticastJoinFlag.FULL_MEMBER, null));

            assertEquals(Errno.EINVAL, ex.errno());
        }
    }

    @Test
    void shouldRefuseAJoinOnAnUnboundIdWithEinval() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); RdmaCmId id = cm.createId(null, PortSpace.UDP))
        {
            final RdmaCmException ex = assertThrows(RdmaCmException.class,
                () -> id.join(InetAddress.getByName("239.1.2.3"), MulticastJoinFlag.FULL_MEMBER, null));

            assertEquals(Errno.EINVAL, ex.errno());
        }
    }

    @Test
    void shouldRefuseToLeaveAGroupNeverJoinedWithEaddrnotavail() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); RdmaCmId id = boundUdId(cm, null, port))
        {
            final RdmaCmException ex = assertThrows(RdmaCmException.class,
                () -> id.leave(InetAddress.getByName("239.1.2.3")));

            assertEquals(Errno.EADDRNOTAVAIL, ex.errno());
        }
    }

    @Test
    void shouldReportTheSasRefusalAsMulticastErrorEinvalAndLeaveNoMembership() throws Exception
    {
        final FabricPort port = fabric.port("Hca4");
        final FabricPort other = fabric.port("Hca3");
        final Gid mgid = Gid.parse("ff12:4001:ffff::f09:909");
        try (SaClient otherSa = attach(other))
        {
            // the group exists with another Q_Key: OpenSM refuses a join with ours (0x0200)
            final McMemberRecordValue broadcast = McMemberRecords.group(otherSa, Gid.parse("ff12:401b:ffff::ffff:ffff"),
                Duration.ofSeconds(3)).join();
            McMemberRecords.join(otherSa, broadcast.withMgid(mgid).withPortGid(other.gid()).withPKey(0xffff)
                .withQkey(0x1b1b).withJoinState(JoinState.FULL_MEMBER), McMemberRecordComponentMask.KERNEL_JOIN,
                Duration.ofSeconds(3)).join();
            try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
                 RdmaCmId id = boundUdId(cm, channel, port))
            {
                final Object context = 42;
                id.join(InetAddress.getByName("239.9.9.9"), MulticastJoinFlag.FULL_MEMBER, context);

                final CmEvent.MulticastError error = assertInstanceOf(CmEvent.MulticastError.class, next(channel));
                assertEquals(-Errno.EINVAL, error.status());
                assertEquals(context, error.context());
                assertNull(member(mgid, port.gid()));
                assertThrows(RdmaCmException.class, () -> id.leave(InetAddress.getByName("239.9.9.9")));
            }
            finally
            {
                McMemberRecords.leave(otherSa, mgid, other.gid(), JoinState.FULL_MEMBER, Duration.ofSeconds(3)).join();
            }
        }
    }

    @Test
    void shouldReportALostSetAsMulticastErrorEtimedoutWithinTheKernelsTimeout() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        final McMemberSetDroppingTransport[] dropping = new McMemberSetDroppingTransport[1];
        try (SaClient sa = attach(port, SaClientConfig.defaults(), t -> dropping[0] = new McMemberSetDroppingTransport(t));
             RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port))
        {
            final long start = System.nanoTime();
            id.join(InetAddress.getByName("239.4.4.4"), MulticastJoinFlag.FULL_MEMBER, null);

            final CmEvent.MulticastError error = assertInstanceOf(CmEvent.MulticastError.class, next(channel));
            final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(-Errno.ETIMEDOUT, error.status());
            assertTrue(tookMillis >= McMemberRecords.KERNEL_TIMEOUT.toMillis() && tookMillis < 6000, tookMillis + " ms");
            assertTrue(dropping[0].dropped() >= 1);
            assertNull(member(Gid.parse("ff12:4001:ffff::f04:404"), port.gid()));
        }
    }

    @Test
    void shouldRecordTheJoinAndLeaveMadsSoThatTsharkDecodesThem() throws Exception
    {
        final FabricPort port = fabric.port("Hca3");
        final Path pcap = dir.resolve("multicast.pcap");
        try (PcapMadRecorder recorder = PcapMadRecorder.create(pcap))
        {
            try (SaClient sa = attach(port, SaClientConfig.defaults().withRecorder(recorder), t -> t);
                 RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
                 RdmaCmId id = boundUdId(cm, channel, port))
            {
                id.join(InetAddress.getByName("239.5.5.5"), MulticastJoinFlag.SEND_ONLY_FULL_MEMBER, null);
                assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
                id.leave(InetAddress.getByName("239.5.5.5"));
                assertNull(memberAfterLeave(Gid.parse("ff12:4001:ffff::f05:505"), port.gid()));
            }
        }
        final List<Map<String, List<String>>> mads = Tshark.decode(pcap, "infiniband.mad.method",
            "infiniband.mad.attributeid", "infiniband.sa.componentmask", "infiniband.mcmemberrecord.mgid",
            "infiniband.mcmemberrecord.portgid", "infiniband.mcmemberrecord.q_key", "infiniband.mcmemberrecord.joinstate")
            .stream().filter(p -> List.of("0x0038").equals(p.get("infiniband.mad.attributeid"))).toList();

        final List<String> set = mads.stream().filter(p -> List.of("0x02").equals(p.get("infiniband.mad.method")))
            .map(p -> p.get("infiniband.sa.componentmask") + " " + p.get("infiniband.mcmemberrecord.mgid") + " " +
                p.get("infiniband.mcmemberrecord.portgid") + " " + p.get("infiniband.mcmemberrecord.q_key") + " " +
                p.get("infiniband.mcmemberrecord.joinstate")).toList();
        assertEquals(List.of("[0x00000000000130c7] [ff12:4001:ffff::f05:505] [" + port.gid() + "] [0x01234567] [0x08]"),
            set, mads.toString());
        final List<String> delete = mads.stream().filter(p -> List.of("0x15").equals(p.get("infiniband.mad.method")))
            .map(p -> p.get("infiniband.sa.componentmask") + " " + p.get("infiniband.mcmemberrecord.joinstate")).toList();
        assertEquals(List.of("[0x0000000000010003] [0x08]"), delete, mads.toString());
        assertNotEquals(0, mads.stream().filter(p -> List.of("0x81").equals(p.get("infiniband.mad.method"))).count());
    }

    @Test
    void shouldLeaveNothingJoinedAndPostNoEventWhenLeavingWhileTheSetIsOut() throws Exception
    {
        final FabricPort port = fabric.port("Hca4");
        // every answer 300 ms late, so that the leave comes while the Set is out
        try (SaClient sa = attach(port, SaClientConfig.defaults(),
                t -> new FaultInjectingTransport(t, Faults.NONE.withDelay(1.0, Duration.ofMillis(300)), 33));
             RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port))
        {
            id.join(InetAddress.getByName("239.6.6.1"), MulticastJoinFlag.FULL_MEMBER, null);
            assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            final long before = sa.counters().get(SaCounter.QUERIES_SUBMITTED);

            id.join(InetAddress.getByName("239.6.6.2"), MulticastJoinFlag.FULL_MEMBER, null);
            id.leave(InetAddress.getByName("239.6.6.2"));
            id.join(InetAddress.getByName("239.6.6.3"), MulticastJoinFlag.FULL_MEMBER, null);

            final CmEvent.MulticastJoin next = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertEquals(InetAddress.getByName("239.6.6.3"), next.group());
            assertTrue(sa.counters().get(SaCounter.QUERIES_SUBMITTED) >= before + 2);
            assertNull(memberAfterLeave(Gid.parse("ff12:4001:ffff::f06:602"), port.gid()));
            assertEquals(JoinState.FULL_MEMBER, joinState(member(Gid.parse("ff12:4001:ffff::f06:603"), port.gid())));
        }
    }

    @Test
    void shouldDropTheGroupsUntakenEventsOnLeave() throws Exception
    {
        final FabricPort port = fabric.port("Hca3");
        try (SaClient sa = attach(port); RdmaCm cm = open(port, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = boundUdId(cm, channel, port); RdmaCmId other = boundUdId(cm, channel, port))
        {
            id.join(InetAddress.getByName("239.6.7.1"), MulticastJoinFlag.FULL_MEMBER, null);
            other.join(InetAddress.getByName("239.6.7.2"), MulticastJoinFlag.FULL_MEMBER, null);
            while (channel.pendingEvents() < 2)
            {
                Thread.sleep(5);
            }

            id.leave(InetAddress.getByName("239.6.7.1"));

            assertEquals(1, channel.pendingEvents());
            final CmEvent.MulticastJoin left = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertEquals(other, left.id());
            assertEquals(InetAddress.getByName("239.6.7.2"), left.group());
            other.leave(InetAddress.getByName("239.6.7.2"));
        }
    }

    @Test
    void shouldLeaveEveryGroupWhenTheRdmaCmClosesWithItsIdsStillThere() throws Exception
    {
        final FabricPort port = fabric.port("Hca2");
        final Gid mgid = Gid.parse("ff12:4001:ffff::f08:808");
        try (SaClient sa = attach(port))
        {
            final RdmaCm cm = open(port, sa);
            try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = boundUdId(cm, channel, port))
            {
                id.join(InetAddress.getByName("239.8.8.8"), MulticastJoinFlag.FULL_MEMBER, null);
                assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
                assertEquals(JoinState.FULL_MEMBER, joinState(member(mgid, port.gid())));

                cm.close();

                assertNull(memberAfterLeave(mgid, port.gid()));
            }
            finally
            {
                cm.close();
            }
        }
    }
}

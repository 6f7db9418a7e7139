package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.MulticastJoinFlag;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.AddressVector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code rdma_join_multicast_ex} on RoCE, ours against the kernel CM through the real librdmacm
 * ({@code mc_oracle.c}), in the kernel guest on rxe0 ({@code k0}, 10.20.0.1): for each case a fresh
 * RDMA_PS_UDP id with no QP is bound, joins, takes its event, leaves, and leaves a group it never joined;
 * every errno, the event, its status and every field of its UD parameters must be equal. Twice: with this
 * stack's own multicast ({@link ConnectionManager#AUTO}, which keeps it even where the kernel's CM connects), and
 * through the kernel's CM
 * ({@link ConnectionManager#KERNEL}: JOIN_MCAST, LEAVE_MCAST), which must leave no kernel id behind
 * ({@code rdma resource}).
 */
public class MulticastAgainstKernelCmInGuest
{
    /**
     * A line of {@code rdma resource show cm_id} for a device of the wire to the other guest ({@code GuestWire}'s rxew0
     * and rxew1): the cases across the wire run their peers' UDP ids there beside the suite (McKeyAcrossTheWire's
     * mckey), so the counts leave it out.
     */
    private static final Pattern WIRE_DEVICE = Pattern.compile("^(link|dev) rxew\\d+\\b");
    /** NAME BIND GROUP FLAGS, as the oracle reads them. */
    private static final List<String> CASES = List.of(
        "ipv4_full " + KernelCmGuest.OWN_IPV4 + " 239.1.2.3 0",
        "ipv4_send_only " + KernelCmGuest.OWN_IPV4 + " 239.1.2.4 1",
        "ipv4_unicast " + KernelCmGuest.OWN_IPV4 + " 10.9.0.2 1",
        "ipv4_wildcard " + KernelCmGuest.OWN_IPV4 + " 0.0.0.0 0",
        "ipv6_group " + KernelCmGuest.OWN_IPV6 + " ff0e::1234 0",
        "ipv4_again " + KernelCmGuest.OWN_IPV4 + " 239.1.2.3 0");
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static Map<String, Map<String, String>> kernel;

    /** Compiles the oracle into {@code directory} (the guest's share). */
    public static Path compile(final Path directory)
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        return CProgram.compile(MulticastAgainstKernelCmInGuest.class, "mc_oracle.c", directory, "mc_oracle", "-O0", "-Wall",
            "-lrdmacm", "-libverbs");
    }

    @BeforeAll
    static void askTheKernel() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final Path input = Files.createTempFile("mc-oracle", ".cases");
        Files.write(input, CASES);
        final String output = HostCommand.run(Duration.ofMinutes(2), "sh", "-c",
            "'" + Path.of(share, "mc_oracle") + "' < '" + input + "'").orFail("the multicast oracle").output();
        kernel = KernelCmOracle.parse(output);
    }

    /** The oracle's answers are the kernel's measured ones, so that the comparison below compares real joins. */
    @Test
    void shouldHearTheKernelJoinTheIpv4GroupAndRefuseTheIpv6One()
    {
        assertEquals("RDMA_CM_EVENT_MULTICAST_JOIN", kernel.get("ipv4_full").get("event"), kernel.toString());
        assertEquals("00000000000000000000ffffef010203", kernel.get("ipv4_full").get("dgid"), kernel.toString());
        assertEquals("524", kernel.get("ipv6_group").get("join_errno"), kernel.toString());
    }

    @TestFactory
    Stream<DynamicTest> shouldJoinAndLeaveAsTheKernelCmThroughLibrdmacm() throws Exception
    {
        final Map<String, Map<String, String>> ours = runAll(ConnectionManager.AUTO);
        return CASES.stream().map(line -> line.split(" ")[0]).map(name -> DynamicTest.dynamicTest(name,
            () -> assertEquals(kernel.get(name), ours.get(name), name)));
    }

    @TestFactory
    Stream<DynamicTest> shouldJoinAndLeaveThroughTheKernelCmAsLibrdmacmDoes() throws Exception
    {
        final List<String> before = udpIds();
        final Map<String, Map<String, String>> ours;
        final List<String> after;
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build()))
        {
            ours = runAll(cm);
            // with the RdmaCm still open: each destroyed id's kernel id went with it, not with the RdmaCm's descriptor
            after = udpIdsBackTo(before);
        }
        return Stream.concat(CASES.stream().map(line -> line.split(" ")[0]).map(name -> DynamicTest.dynamicTest(name,
            () -> assertEquals(kernel.get(name), ours.get(name), name))),
            Stream.of(DynamicTest.dynamicTest("no kernel id left", () -> assertEquals(before, after,
                "rdma resource show cm_id, RDMA_PS_UDP"))));
    }

    /**
     * Two ids on two event channels of one RdmaCm join through the kernel's CM: both memberships' events come on
     * the RdmaCm's one kernel descriptor, and each reaches its own id's channel (why no MIGRATE_ID is needed
     * between channels, docs/decisions.md).
     */
    @Test
    void shouldHandEachIdItsOwnKernelMulticastEventOnItsOwnChannel() throws Exception
    {
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
             EventChannel first = cm.createEventChannel(); EventChannel second = cm.createEventChannel();
             RdmaCmId a = cm.createId(first, PortSpace.UDP); RdmaCmId b = cm.createId(second, PortSpace.UDP))
        {
            final InetAddress own = InetAddress.getByName(KernelCmGuest.OWN_IPV4);
            a.bindAddr(own);
            b.bindAddr(own);
            b.join(InetAddress.getByName("239.1.2.6"), MulticastJoinFlag.FULL_MEMBER, "b");
            a.join(InetAddress.getByName("239.1.2.5"), MulticastJoinFlag.FULL_MEMBER, "a");
            final CmEvent onFirst = first.getEvent(WAIT);
            final CmEvent onSecond = second.getEvent(WAIT);
            assertEquals(List.of(a, "a", "/239.1.2.5"), List.of(onFirst.id(), ((CmEvent.MulticastJoin)onFirst).context(),
                ((CmEvent.MulticastJoin)onFirst).group().toString()), onFirst.toString());
            assertEquals(List.of(b, "b", "/239.1.2.6"), List.of(onSecond.id(), ((CmEvent.MulticastJoin)onSecond).context(),
                ((CmEvent.MulticastJoin)onSecond).group().toString()), onSecond.toString());
            onFirst.ack();
            onSecond.ack();
        }
    }

    private static Map<String, Map<String, String>> runAll(final ConnectionManager manager) throws Exception
    {
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(manager).build()))
        {
            return runAll(cm);
        }
    }

    private static Map<String, Map<String, String>> runAll(final RdmaCm cm) throws Exception
    {
        final Map<String, Map<String, String>> ours = new LinkedHashMap<>();
        for (final String line : CASES)
        {
            final String[] fields = line.split(" ");
            ours.put(fields[0], run(cm, InetAddress.getByName(fields[1]), InetAddress.getByName(fields[2]),
                fields[3].equals("1") ? MulticastJoinFlag.SEND_ONLY_FULL_MEMBER : MulticastJoinFlag.FULL_MEMBER));
        }
        return ours;
    }

    /** {@link #udpIds} once they are {@code before} again (a destroy the conductor finishes after the call), or as they stay. */
    private static List<String> udpIdsBackTo(final List<String> before) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> now = udpIds();
        while (!now.equals(before) && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(100);
            now = udpIds();
        }
        return now;
    }

    /**
     * The host's RDMA_PS_UDP CM ids as {@code rdma resource} lists them: those of multicast ids, and none of the
     * connections other cases of the guest may be making meanwhile.
     */
    private static List<String> udpIds()
    {
        return HostCommand.run(WAIT, "rdma", "resource", "show", "cm_id").orFail("rdma resource show cm_id").output().lines()
            .filter(line -> line.contains(" ps UDP ") && !WIRE_DEVICE.matcher(line).find()).toList();
    }

    private static Map<String, String> run(final RdmaCm cm, final InetAddress bind, final InetAddress group,
        final MulticastJoinFlag flag) throws Exception
    {
        final Map<String, String> out = new LinkedHashMap<>();
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel, PortSpace.UDP))
        {
            try
            {
                id.bindAddr(bind);
            }
            catch (final RdmaCmException ex)
            {
                out.put("bind_errno", Integer.toString(ex.errno()));
                return out;
            }
            try
            {
                id.join(group, flag, null);
                final CmEvent event = channel.getEvent(WAIT);
                if (event == null)
                {
                    out.put("event", "none");
                }
                else
                {
                    event.ack();
                    out.put("event", "RDMA_CM_EVENT_" + event.type().name());
                    out.put("status", Integer.toString(event.status()));
                    if (event instanceof CmEvent.MulticastJoin joined)
                    {
                        describe(joined, out);
                    }
                }
                out.put("leave_errno", Integer.toString(leave(id, group)));
            }
            catch (final RdmaCmException ex)
            {
                out.put("join_errno", Integer.toString(ex.errno()));
            }
            out.put("leave_never_errno", Integer.toString(leave(id, InetAddress.getByName("239.255.255.254"))));
        }
        return out;
    }

    private static void describe(final CmEvent.MulticastJoin joined, final Map<String, String> out)
    {
        final AddressVector ah = joined.ud().ahAttr();
        final AddressVector.GlobalRoute grh = ah.grh().orElse(new AddressVector.GlobalRoute(
            dev.rdmacm.protocol.Gid.ZERO, 0, 0, 0, 0));
        out.put("dgid", HexFormat.of().formatHex(grh.dgid().toBytes()));
        out.put("flow_label", Integer.toString(grh.flowLabel()));
        out.put("sgid_index", Integer.toString(grh.sgidIndex()));
        out.put("hop_limit", Integer.toString(grh.hopLimit()));
        out.put("traffic_class", Integer.toString(grh.trafficClass()));
        out.put("dlid", Integer.toString(ah.dlid()));
        out.put("sl", Integer.toString(ah.serviceLevel()));
        out.put("src_path_bits", Integer.toString(ah.srcPathBits()));
        out.put("static_rate", Integer.toString(ah.staticRate()));
        out.put("is_global", ah.grh().isPresent() ? "1" : "0");
        out.put("port_num", Integer.toString(ah.port()));
        out.put("qp_num", Integer.toString(joined.ud().qpNumber()));
        out.put("qkey", Long.toString(joined.ud().qkey()));
    }

    /** {@code rdma_leave_multicast}'s errno as librdmacm's programs here print it: 0 when it returned. */
    static int leave(final RdmaCmId id, final InetAddress group)
    {
        try
        {
            id.leave(group);
            return 0;
        }
        catch (final RdmaCmException ex)
        {
            return ex.errno();
        }
    }
}

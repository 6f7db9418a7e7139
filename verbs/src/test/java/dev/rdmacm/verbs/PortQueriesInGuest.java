package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.IbvDevinfo.number;
import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): the port attributes, the GID table
 * with types and netdevs, and the P_Key table of {@code rxe10}, compared with {@code ibv_devinfo -v},
 * the kernel's sysfs files and {@code rdma -j link}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class PortQueriesInGuest
{
    private static final SysfsPort SYSFS = new SysfsPort(SENDER, PORT);
    private static IbvDevinfo.Port devinfo;
    private static VerbsContext context;

    @BeforeAll
    static void openTheDevice()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        devinfo = IbvDevinfo.run().device(SENDER).ports().get(PORT - 1);
        context = Verbs.open(SENDER);
    }

    @AfterAll
    static void closeTheDevice()
    {
        if (context != null)
        {
            context.close();
        }
    }

    @Test
    void shouldQueryEveryPortAttributeAsIbvDevinfoPrintsIt()
    {
        final PortAttributes port = context.queryPort(PORT);
        final Map<String, Long> queried = new LinkedHashMap<>();
        queried.put("state", (long)port.state());
        queried.put("max_mtu", (long)port.maxMtu());
        queried.put("active_mtu", (long)port.activeMtu());
        queried.put("sm_lid", (long)port.smLid());
        queried.put("port_lid", (long)port.lid());
        queried.put("port_lmc", (long)port.lmc());
        queried.put("max_msg_sz", port.maxMessageSize());
        queried.put("port_cap_flags", port.portCapFlags());
        queried.put("port_cap_flags2", (long)port.portCapFlags2());
        queried.put("max_vl_num", (long)port.maxVlNum());
        queried.put("bad_pkey_cntr", port.badPkeyCounter());
        queried.put("qkey_viol_cntr", port.qkeyViolationCounter());
        queried.put("sm_sl", (long)port.smSl());
        queried.put("pkey_tbl_len", (long)port.pkeyTableLength());
        queried.put("gid_tbl_len", (long)port.gidTableLength());
        queried.put("subnet_timeout", (long)port.subnetTimeout());
        queried.put("init_type_reply", (long)port.initTypeReply());
        queried.put("active_width", (long)port.activeWidth());
        queried.put("active_speed", (long)port.activeSpeed());
        queried.put("phys_state", (long)port.physState());
        final Map<String, Long> printed = new LinkedHashMap<>();
        queried.keySet().forEach(key -> printed.put(key, number(devinfo.field(key))));

        assertEquals(printed, queried);
    }

    @Test
    void shouldQueryTheLinkLayerIbvDevinfoPrints()
    {
        assertEquals(devinfo.field("link_layer"), context.queryPort(PORT).linkLayerType().text());
    }

    @Test
    void shouldQueryThePortThroughTheExtendedContext()
    {
        // ibv_devinfo compiles ibv_query_port to the same extended call; the 48-byte compatibility
        // symbol would leave port_cap_flags2 at 0 whatever the device has
        assertTrue(context.ops().hasExtendedQueryPort());
        assertEquals(number(devinfo.field("port_cap_flags2")), context.queryPort(PORT).portCapFlags2());
    }

    @Test
    void shouldReportThePortStatesRdmaLinkShows()
    {
        final Map<String, Object> link = PeerTools.jsonObject("rdma", "-j", "link", "show", SENDER + "/" + PORT);
        final PortAttributes port = context.queryPort(PORT);

        assertEquals(link.get("state"), port.portState().name());
        assertEquals(link.get("physical_state"), PhysicalPortState.ofValue(port.physState()).name());
    }

    @Test
    void shouldBindEveryGidToTheNetdevRdmaLinkShows()
    {
        final Object netdev = PeerTools.jsonObject("rdma", "-j", "link", "show", SENDER + "/" + PORT).get("netdev");
        final List<GidEntry> table = context.gidTable(PORT);

        assertEquals(SENDER_NETDEV, netdev, "the guest's topology");
        assertFalse(table.isEmpty());
        table.forEach(entry -> assertEquals(netdev, entry.netdev().orElse(null), entry.toString()));
    }

    @Test
    void shouldReadTheGidTableAsSysfsShowsIt()
    {
        assertEquals(SYSFS.gids(), context.gidTable(PORT).stream().map(PortQueriesInGuest::asSysfs).toList());
    }

    @Test
    void shouldReadTheGidTableAsIbvDevinfoPrintsIt()
    {
        final List<IbvDevinfo.GidLine> expected = devinfo.gids();

        assertEquals(expected, context.gidTable(PORT).stream()
            .map(e -> new IbvDevinfo.GidLine(e.index(), e.gid().toString(), e.type().text())).toList());
    }

    @Test
    void shouldQueryEachGidAsSysfsShowsIt()
    {
        for (final SysfsPort.Gid expected : SYSFS.gids())
        {
            assertEquals(expected, asSysfs(context.queryGid(PORT, expected.index())));
        }
    }

    @Test
    void shouldRefuseToQueryAnEmptyGidEntryWithEnodata()
    {
        final int empty = SYSFS.firstEmptyGidIndex();

        final VerbsException ex = assertThrows(VerbsException.class, () -> context.queryGid(PORT, empty));

        assertEquals(Errno.ENODATA, ex.errno(), ex.getMessage());
    }

    @Test
    void shouldReadThePkeyTableAsSysfsShowsIt()
    {
        final List<String> sysfs = SYSFS.pkeys();

        assertEquals(sysfs.size(), context.queryPort(PORT).pkeyTableLength());
        assertEquals(sysfs.stream().filter(p -> !p.equals("0x0000")).toList(),
            context.pkeyTable(PORT).stream().map(PkeyEntry::text).toList());
    }

    @Test
    void shouldDescribeThePortAsSysfsShowsIt()
    {
        final RdmaPort port = context.describe().ports().get(PORT - 1);
        final Map<String, String> described = new LinkedHashMap<>();
        described.put("state", port.state().value() + ": " + port.state().text());
        described.put("phys_state", port.physState().value() + ": " + port.physState().text());
        described.put("link_layer", port.linkLayer().text());
        described.put("lid", "0x" + Integer.toHexString(port.lid()));
        described.put("lid_mask_count", Integer.toString(port.lmc()));
        described.put("sm_lid", "0x" + Integer.toHexString(port.smLid()));
        described.put("sm_sl", Integer.toString(port.smSl()));
        described.put("rate", port.rate());
        final Map<String, String> sysfs = new LinkedHashMap<>();
        described.keySet().forEach(file -> sysfs.put(file, SYSFS.file(file)));

        assertEquals(sysfs, described);
    }

    @Test
    void shouldDescribeTheDeviceAsSysfsShowsIt()
    {
        final RdmaDevice device = context.describe();

        assertEquals(SYSFS.deviceFile("node_guid"), RdmaDevice.guidText(device.nodeGuid()));
        assertEquals(SYSFS.deviceFile("node_type"), device.nodeType().value() + ": " + device.nodeType().text());
        assertEquals(SYSFS.gids(), device.ports().get(PORT - 1).gids().stream().map(PortQueriesInGuest::asSysfs).toList());
    }

    /** A GID entry in sysfs's words: the GID as eight groups of four hex digits, the type text, the netdev. */
    private static SysfsPort.Gid asSysfs(final GidEntry entry)
    {
        return new SysfsPort.Gid(entry.index(), entry.gid().toLongForm(), entry.type().text(), entry.netdev().orElse(""));
    }
}

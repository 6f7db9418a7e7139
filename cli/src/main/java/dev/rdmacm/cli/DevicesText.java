package dev.rdmacm.cli;

import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/**
 * The text form of {@code rdmacm devices}: where the devices were read (and why not from
 * libibverbs), then per device its ports, GIDs and P_Keys, one line each:
 * <pre>
 * mlx5_0: CA, node GUID 0002:c903:00a1:b2c4
 *   port 1: ACTIVE (LinkUp), InfiniBand, 100 Gb/sec (4X EDR)
 *     LID 0x0005, LMC 0, SM LID 0x0001, SM SL 0
 *     MTU 4096 max, 4096 active            (through libibverbs only)
 *     GID 0: fe80::2:c903:a1:b2c5 IB
 *     P_Key 0: 0xffff
 * connection manager: auto takes the userspace CM (ib_cm is not loaded)
 * </pre>
 */
final class DevicesText
{
    private DevicesText()
    {
    }

    static void write(final RdmaDevices devices, final PortMtus mtus, final Optional<String> libibverbsNote, final PrintWriter out)
    {
        out.println("source: " + devices.source() + libibverbsNote.map(note -> ", because " + note).orElse(""));
        for (final RdmaDevice device : devices.devices())
        {
            out.println(device.name() + ": " + device.nodeType().text() + ", node GUID " + RdmaDevice.guidText(device.nodeGuid()));
            for (final RdmaPort port : device.ports())
            {
                out.println("  port " + port.number() + ": " + port.state().text() + " (" + port.physState().text() + "), "
                    + port.linkLayer().text() + ", " + port.rate());
                out.println("    LID " + lid(port.lid()) + ", LMC " + port.lmc() + ", SM LID " + lid(port.smLid())
                    + ", SM SL " + port.smSl());
                mtus.of(device.name(), port.number()).ifPresent(mtu ->
                    out.println("    MTU " + mtu.maxBytes() + " max, " + mtu.activeBytes() + " active"));
                for (final GidEntry gid : port.gids())
                {
                    out.println("    GID " + gid.index() + ": " + gid.gid() + " " + gid.type().text()
                        + gid.netdev().map(netdev -> " " + netdev).orElse(""));
                }
                for (final PkeyEntry pkey : port.pkeys())
                {
                    out.println("    P_Key " + pkey.index() + ": " + pkey.text());
                }
            }
        }
        out.println(connectionManagerLine(ConnectionManager.autoOnThisHost()));
    }

    /** The last line: what {@code --cm auto} takes on this host, and why (whether ib_cm holds the CM class). */
    static String connectionManagerLine(final ConnectionManager auto)
    {
        return auto == ConnectionManager.KERNEL
            ? "connection manager: auto takes the kernel's (ib_cm is loaded and holds every port's CM class)"
            : "connection manager: auto takes the userspace CM (ib_cm is not loaded)";
    }

    private static String lid(final int lid)
    {
        return String.format(Locale.ROOT, "0x%04x", lid);
    }
}

package dev.rdmacm.netlink;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One kernel uevent as a NETLINK_KOBJECT_UEVENT socket receives it: a header {@code ACTION@DEVPATH}
 * and then {@code KEY=VALUE} strings, each NUL-terminated (lib/kobject_uevent.c). The RDMA core adds
 * {@code NAME=<device>} to the events of its devices ({@code ib_device_uevent}).
 *
 * @param action     ACTION: add, remove, change, move, online, offline, bind, unbind.
 * @param devpath    DEVPATH, under /sys.
 * @param properties every KEY=VALUE, in order.
 */
public record Uevent(String action, String devpath, Map<String, String> properties)
{
    /** The subsystem of RDMA devices ({@code /sys/class/infiniband}). */
    public static final String INFINIBAND = "infiniband";

    public Uevent
    {
        properties = Map.copyOf(properties);
    }

    /**
     * Decodes one datagram of {@code length} bytes; null for one that is not a kernel uevent (udevd's
     * own messages start with {@code libudev}, and the kernel's always carry ACTION and DEVPATH).
     */
    public static Uevent decode(final byte[] datagram, final int length)
    {
        final String text = new String(datagram, 0, length, StandardCharsets.UTF_8);
        final String[] parts = text.split("\0");
        if (parts.length == 0 || !parts[0].contains("@"))
        {
            return null;
        }
        final Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++)
        {
            final int equals = parts[i].indexOf('=');
            if (equals > 0)
            {
                properties.put(parts[i].substring(0, equals), parts[i].substring(equals + 1));
            }
        }
        final String action = properties.get("ACTION");
        final String devpath = properties.get("DEVPATH");
        return action == null || devpath == null ? null : new Uevent(action, devpath, properties);
    }

    /** The RDMA device this event removes ({@code remove} of subsystem infiniband), or null. */
    public String removedRdmaDevice()
    {
        return action.equals("remove") && INFINIBAND.equals(properties.get("SUBSYSTEM")) ? properties.get("NAME") : null;
    }
}

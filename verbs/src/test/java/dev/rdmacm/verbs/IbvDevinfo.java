package dev.rdmacm.verbs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ibv_devinfo -v} prints, as it prints it: one block per {@code hca_id:}, its
 * {@code key: value} lines, then one block per {@code port:} with its own lines and its
 * {@code GID[ i]: gid, type} lines. Continuation lines without a key (the names of the set
 * capability bits) are left out; the hex number above them carries the same bits.
 */
public record IbvDevinfo(List<Device> devices)
{
    private static final Pattern FIELD = Pattern.compile("^\\s*([A-Za-z0-9_]+):\\s*(.*?)\\s*$");
    private static final Pattern GID = Pattern.compile("^\\s*GID\\[\\s*(\\d+)\\]:\\s*(\\S+), (.+?)\\s*$");
    private static final Pattern CODE_IN_PARENTHESES = Pattern.compile(".*\\((\\d+)\\)$");

    public record Device(String name, Map<String, String> fields, List<Port> ports)
    {
        public String field(final String key)
        {
            return IbvDevinfo.field(fields, key, name);
        }
    }

    public record Port(int number, Map<String, String> fields, List<GidLine> gids)
    {
        public String field(final String key)
        {
            return IbvDevinfo.field(fields, key, "port " + number);
        }
    }

    /** {@code GID[  1]:  ::ffff:192.0.2.1, RoCE v2}. */
    public record GidLine(int index, String gid, String type)
    {
    }

    /** Runs {@code ibv_devinfo -v} and parses it. */
    public static IbvDevinfo run()
    {
        return parse(PeerTools.output("ibv_devinfo", "-v"));
    }

    public static IbvDevinfo parse(final String text)
    {
        final List<Device> devices = new ArrayList<>();
        Map<String, String> fields = null;
        List<Port> ports = null;
        Port port = null;
        for (final String line : text.lines().toList())
        {
            final Matcher gid = GID.matcher(line);
            final Matcher field = FIELD.matcher(line);
            if (gid.matches() && port != null)
            {
                port.gids().add(new GidLine(Integer.parseInt(gid.group(1)), gid.group(2), gid.group(3)));
            }
            else if (field.matches() && field.group(1).equals("hca_id"))
            {
                fields = new LinkedHashMap<>();
                ports = new ArrayList<>();
                port = null;
                devices.add(new Device(field.group(2), fields, ports));
            }
            else if (field.matches() && field.group(1).equals("port") && ports != null)
            {
                port = new Port(Integer.parseInt(field.group(2)), new LinkedHashMap<>(), new ArrayList<>());
                ports.add(port);
            }
            else if (field.matches() && fields != null)
            {
                (port == null ? fields : port.fields()).put(field.group(1), field.group(2));
            }
        }
        return new IbvDevinfo(devices);
    }

    public Device device(final String name)
    {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("ibv_devinfo -v printed no hca_id " + name + ": " + devices));
    }

    /**
     * A number as {@code ibv_devinfo} prints it: the code in parentheses when there is one
     * ({@code PORT_ACTIVE (4)}, {@code 4096 (5)}, {@code 10.0 Gbps (8)}), else hex with {@code 0x}, else decimal.
     */
    public static long number(final String value)
    {
        final Matcher code = CODE_IN_PARENTHESES.matcher(value);
        if (code.matches())
        {
            return Long.parseLong(code.group(1));
        }
        if (value.startsWith("0x"))
        {
            return Long.parseUnsignedLong(value.substring(2), 16);
        }
        return Long.parseLong(value);
    }

    /** A GUID as {@code ibv_devinfo} prints it, {@code d0e2:8cff:feb7:2435}. */
    public static long guid(final String value)
    {
        return Long.parseUnsignedLong(value.replace(":", ""), 16);
    }

    private static String field(final Map<String, String> fields, final String key, final String where)
    {
        final String value = fields.get(key);
        if (value == null)
        {
            throw new AssertionError("ibv_devinfo -v printed no " + key + " for " + where + ": " + fields);
        }
        return value;
    }
}

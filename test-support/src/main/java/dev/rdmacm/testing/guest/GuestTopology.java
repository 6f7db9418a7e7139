package dev.rdmacm.testing.guest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The network and RDMA devices a test wants in its guest, built at boot before any job runs: network
 * namespaces, veth pairs, VLAN upper devices with their egress-qos-map, MTUs, addresses, routes and
 * rxe devices. Each step becomes one iproute2 or {@code rdma} command; the boot fails, naming the
 * command, at the first one that fails.
 * <pre>
 *   GuestTopology.create()
 *       .veth("e0", "e1").address("e0", "10.10.0.1/24").address("e1", "10.10.0.2/24")
 *       .vlan("e0", 200, "0:3").mtu("e1", 9000)
 *       .rxe("rxe0", "e0").rxe("rxe1", "e1");
 * </pre>
 * Names are checked when a step is added (interface names as the kernel allows them, at most 15
 * characters), so no step can smuggle shell syntax into the boot job.
 */
public final class GuestTopology
{
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}");
    private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f.:]+(/\\d{1,3})?");
    private static final Pattern QOS_MAP = Pattern.compile("\\d:\\d( \\d:\\d)*");
    /** A step of words separated by single spaces, with no character the shell would treat specially. */
    private static final Pattern BATCHABLE = Pattern.compile("[A-Za-z0-9_.:/=,@+-]+( [A-Za-z0-9_.:/=,@+-]+)+");

    private final List<String> namespaces = new ArrayList<>();
    private final List<String> commands = new ArrayList<>();

    private GuestTopology()
    {
    }

    public static GuestTopology create()
    {
        return new GuestTopology();
    }

    /** A network namespace; veth ends and addresses can then be placed in it. */
    public GuestTopology namespace(final String name)
    {
        checked("namespace", name);
        if (!namespaces.contains(name))
        {
            namespaces.add(name);
            commands.add("ip netns add " + name);
            commands.add("ip -n " + name + " link set lo up");
        }
        return this;
    }

    /** A veth pair with both ends up in the initial namespace. */
    public GuestTopology veth(final String name, final String peer)
    {
        commands.add("ip link add " + checked("interface", name) + " type veth peer name " + checked("interface", peer));
        commands.add("ip link set " + name + " up");
        commands.add("ip link set " + peer + " up");
        return this;
    }

    /** A veth pair: {@code name} up in the initial namespace, {@code peer} up in {@code namespace}. */
    public GuestTopology veth(final String name, final String peer, final String namespace)
    {
        namespace(namespace);
        commands.add("ip link add " + checked("interface", name) + " type veth peer name " + checked("interface", peer)
            + " netns " + namespace);
        commands.add("ip link set " + name + " up");
        commands.add("ip -n " + namespace + " link set " + peer + " up");
        return this;
    }

    /** A VLAN upper device {@code parent.id}, up, with {@code egressQosMap} ("0:3 1:5", or "" for none). */
    public GuestTopology vlan(final String parent, final int id, final String egressQosMap)
    {
        if (id < 1 || id > 4094)
        {
            throw new IllegalArgumentException("VLAN id " + id + ": must be 1..4094");
        }
        final String name = checked("interface", parent + "." + id);
        final String map = egressQosMap.isEmpty() ? "" : " egress-qos-map " + matching("egress-qos-map", egressQosMap, QOS_MAP);
        commands.add("ip link add link " + checked("interface", parent) + " name " + name + " type vlan id " + id + map);
        commands.add("ip link set " + name + " up");
        return this;
    }

    public GuestTopology mtu(final String ifname, final int mtu)
    {
        if (mtu < 68 || mtu > 65535)
        {
            throw new IllegalArgumentException("MTU " + mtu + " for " + ifname + ": must be 68..65535");
        }
        commands.add("ip link set " + checked("interface", ifname) + " mtu " + mtu);
        return this;
    }

    /** An address on {@code ifname} in the initial namespace; IPv6 addresses skip duplicate detection. */
    public GuestTopology address(final String ifname, final String cidr)
    {
        commands.add("ip address add " + matching("address", cidr, ADDRESS) + " dev " + checked("interface", ifname)
            + (cidr.contains(":") ? " nodad" : ""));
        return this;
    }

    /** An address on {@code ifname} in {@code namespace}. */
    public GuestTopology address(final String namespace, final String ifname, final String cidr)
    {
        commands.add("ip -n " + checked("namespace", namespace) + " address add " + matching("address", cidr, ADDRESS) + " dev "
            + checked("interface", ifname) + (cidr.contains(":") ? " nodad" : ""));
        return this;
    }

    /** A Soft-RoCE device over {@code netdev}: {@code rdma link add DEVICE type rxe netdev NETDEV}. */
    public GuestTopology rxe(final String device, final String netdev)
    {
        commands.add("rdma link add " + checked("RDMA device", device) + " type rxe netdev " + checked("interface", netdev));
        return this;
    }

    /**
     * Any other step, as a shell command line the test wrote itself (a route, a neighbour, a sysctl).
     * It is run as written: never build it from input the test did not choose.
     */
    public GuestTopology command(final String shellLine)
    {
        commands.add(shellLine);
        return this;
    }

    /**
     * The steps as a shell script that stops, naming the step, at the first failure. Consecutive
     * {@code ip} steps in one namespace ({@code ip}, {@code ip -n NS}) go to one {@code ip -batch}, in
     * their order: under TCG each process start costs a few tenths of a second, which
     * the kernel guest's 151 steps paid one by one. A batch stops at its first failing line, which the
     * tool names ({@code Command failed -:LINE}) before the script names the batch's steps.
     */
    String script()
    {
        final StringBuilder script = new StringBuilder();
        int i = 0;
        while (i < commands.size())
        {
            final String tool = batchTool(commands.get(i));
            int end = i + 1;
            while (tool != null && end < commands.size() && tool.equals(batchTool(commands.get(end))))
            {
                end++;
            }
            if (end - i == 1)
            {
                script.append(commands.get(i)).append(failed(commands.get(i)));
            }
            else
            {
                final List<String> batch = commands.subList(i, end);
                script.append(tool).append(" -batch - <<'EOF'").append(failed(String.join("; ", batch)));
                batch.forEach(command -> script.append(command.substring(tool.length() + 1)).append('\n'));
                script.append("EOF\n");
            }
            i = end;
        }
        return script.toString();
    }

    /**
     * The tool and namespace prefix ({@code ip} or {@code ip -n NS}) of a step that {@code ip -batch}
     * can run as a line, or null: a line holds an object and its arguments, no global option, and
     * only characters that mean the same to the tool's batch parser as to the shell.
     */
    private static String batchTool(final String command)
    {
        if (!BATCHABLE.matcher(command).matches())
        {
            return null;
        }
        final String[] words = command.split(" ");
        if (words[1].equals("netns"))
        {
            return null; // ip netns add enters the new namespace to create it: the steps after it stay apart
        }
        if (words[0].equals("ip") && words[1].equals("-n") && words.length > 3 && !words[3].startsWith("-")
            && !words[3].equals("netns"))
        {
            return "ip -n " + words[2];
        }
        return words[0].equals("ip") && !words[1].startsWith("-") ? "ip" : null;
    }

    private static String failed(final String what)
    {
        return " || { echo 'topology step failed: " + what.replace("'", "'\\''") + "' >&2; exit 1; }\n";
    }

    @Override
    public String toString()
    {
        return String.join("; ", commands);
    }

    private static String checked(final String what, final String name)
    {
        return matching(what + " name", name, NAME);
    }

    private static String matching(final String what, final String value, final Pattern pattern)
    {
        if (value == null || !pattern.matcher(value).matches())
        {
            throw new IllegalArgumentException(what + " '" + value + "' does not match " + pattern.pattern());
        }
        return value;
    }
}

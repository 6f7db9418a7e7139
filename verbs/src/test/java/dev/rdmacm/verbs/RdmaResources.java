package dev.rdmacm.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kernel's account of RDMA resources, as {@code rdma resource show} prints it: how many PDs,
 * CQs, QPs, MRs, contexts... a device has (its own included, e.g. the GSI QP and its CQ and PD),
 * and the objects of one type that this JVM holds, with the kernel's numbers for them.
 */
final class RdmaResources
{
    /** The types {@link #snapshot} lists. */
    static final List<String> TYPES = List.of("ctx", "pd", "cq", "qp", "mr");

    private RdmaResources()
    {
    }

    /**
     * The counts and this JVM's objects of every one of {@link #TYPES} on one device, read by one
     * shell running {@code rdma} once per type: under TCG, each process the JVM starts costs more
     * than the {@code rdma} runs themselves.
     *
     * @param counts the count of every resource type, as {@code rdma -j resource show} prints it.
     * @param ours   this JVM's objects, by type, as {@code rdma -j -d resource show TYPE} prints them.
     */
    record Snapshot(Map<String, Long> counts, Map<String, List<Map<String, Object>>> ours)
    {
    }

    static Snapshot snapshot(final String device)
    {
        final StringBuilder script = new StringBuilder("rdma -j resource show");
        TYPES.forEach(type -> script.append(" && rdma -j -d resource show ").append(type));
        final List<String> lines = PeerTools.output("sh", "-c", script.toString()).lines().toList();
        if (lines.size() != TYPES.size() + 1)
        {
            throw new AssertionError("`" + script + "` printed " + lines.size() + " lines, not " + (TYPES.size() + 1) + ": " + lines);
        }
        final Map<String, List<Map<String, Object>>> ours = new LinkedHashMap<>();
        for (int i = 0; i < TYPES.size(); i++)
        {
            ours.put(TYPES.get(i), owned(PeerTools.parseArray(lines.get(i + 1)), device));
        }
        return new Snapshot(counts(PeerTools.parseArray(lines.get(0)), device), ours);
    }

    /** {@code rdma -j resource show}: the count of every resource type on {@code device}. */
    static Map<String, Long> counts(final String device)
    {
        return counts(PeerTools.jsonArray("rdma", "-j", "resource", "show"), device);
    }

    /** {@code rdma -j -d resource show TYPE}: the objects of {@code type} on {@code device} owned by this JVM. */
    static List<Map<String, Object>> ours(final String type, final String device)
    {
        return owned(PeerTools.jsonArray("rdma", "-j", "-d", "resource", "show", type), device);
    }

    /** The one object of {@code type} on {@code device} owned by this process. */
    static Map<String, Object> ourOnly(final String type, final String device)
    {
        final List<Map<String, Object>> ours = ours(type, device);
        if (ours.size() != 1)
        {
            throw new AssertionError("rdma resource show " + type + " lists " + ours.size() + " of this JVM's on " + device
                + ", not one: " + ours);
        }
        return ours.getFirst();
    }

    /** A number field of an object, e.g. {@code lqpn} or {@code cqe}. */
    static long number(final Map<String, Object> entry, final String key)
    {
        try
        {
            return Long.parseLong((String)entry.get(key));
        }
        catch (final NumberFormatException | ClassCastException | NullPointerException ex)
        {
            throw new AssertionError("rdma resource entry has no number " + key + ": " + entry, ex);
        }
    }

    /** A key the kernel prints in hex without {@code 0x}, e.g. {@code "lkey":"47d"}. */
    static long hexKey(final Map<String, Object> entry, final String key)
    {
        if (entry.get(key) instanceof String text)
        {
            return Long.parseUnsignedLong(text, 16);
        }
        throw new AssertionError("rdma resource entry has no hex " + key + ": " + entry);
    }

    private static Map<String, Long> counts(final List<Map<String, Object>> devices, final String device)
    {
        for (final Map<String, Object> entry : devices)
        {
            if (device.equals(entry.get("ifname")))
            {
                final Map<String, Long> counts = new TreeMap<>();
                entry.forEach((key, value) ->
                {
                    if (!key.equals("ifindex") && !key.equals("ifname"))
                    {
                        counts.put(key, number(entry, key));
                    }
                });
                return counts;
            }
        }
        throw new AssertionError("rdma resource show lists no device " + device + ": " + devices);
    }

    /**
     * The entries on {@code device} that this JVM owns. The kernel records the thread that created
     * an object and prints that thread's id as {@code pid}, which in a JVM is never the process id:
     * an object is this JVM's when its {@code pid} is one of the JVM's threads.
     */
    private static List<Map<String, Object>> owned(final List<Map<String, Object>> entries, final String device)
    {
        final Set<Long> threads = threadIds();
        return entries.stream()
            .filter(entry -> device.equals(entry.get("ifname")))
            .filter(entry -> entry.containsKey("pid") && threads.contains(number(entry, "pid")))
            .toList();
    }

    private static Set<Long> threadIds()
    {
        final Path tasks = Path.of("/proc/self/task");
        try (Stream<Path> entries = Files.list(tasks))
        {
            return entries.map(p -> Long.parseLong(p.getFileName().toString())).collect(Collectors.toSet());
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list " + tasks + ": " + ex, ex);
        }
    }
}

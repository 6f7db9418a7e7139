package dev.rdmacm.verbs;

import dev.rdmacm.testing.EkJson;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The guest's own tools, which the {@code *InGuest} tests take their expected values from:
 * {@code ibv_devinfo}, {@code rdma} and {@code ip}, run as processes, their JSON parsed as it is
 * (numbers stay text, see {@link EkJson}).
 */
public final class PeerTools
{
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private PeerTools()
    {
    }

    /** What {@code command} printed; fails the test naming the command when it exits non-zero. */
    public static String output(final String... command)
    {
        Peers.requireCommand(command[0], debianPackage(command[0]));
        return HostCommand.run(LIMIT, command).orFail(command[0]).output();
    }

    /** The JSON array of objects that {@code rdma -j} or {@code ip -j} prints. */
    public static List<Map<String, Object>> jsonArray(final String... command)
    {
        return parseArray(output(command));
    }

    /** A JSON array of objects as the tools print it; nothing at all is an empty array. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> parseArray(final String json)
    {
        if (json.isBlank())
        {
            return List.of();
        }
        if (EkJson.parse(json) instanceof List<?> array && array.stream().allMatch(Map.class::isInstance))
        {
            return (List<Map<String, Object>>)array;
        }
        throw new AssertionError("no JSON array of objects:\n" + json);
    }

    /** The one object of a JSON array, e.g. {@code ip -j link show dev e0}. */
    public static Map<String, Object> jsonObject(final String... command)
    {
        final List<Map<String, Object>> array = jsonArray(command);
        if (array.size() != 1)
        {
            throw new AssertionError("`" + String.join(" ", command) + "` printed " + array.size() + " objects, not one: " + array);
        }
        return array.getFirst();
    }

    private static String debianPackage(final String command)
    {
        return switch (command)
        {
            case "ibv_devinfo" -> "ibverbs-utils";
            case "rdma", "ip" -> "iproute2";
            case "setpriv" -> "util-linux";
            case "sh" -> "dash";
            default -> command;
        };
    }
}

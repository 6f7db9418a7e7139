package dev.rdmacm.cm.kernel;

import java.util.Arrays;
import java.util.List;

/**
 * One case of the kernel-CM comparison: {@code rdma_resolve_addr(src, dst, timeout)} on a fresh id,
 * then {@code rdma_resolve_route(timeout)} when the address resolved.
 *
 * @param name        unique, used as the key of every output line
 * @param destination numeric address, {@code ADDR#PORT} for a port, {@code ADDR%IFNAME} for a scope
 * @param source      the same form, or null for none
 * @param timeoutMs   for both calls
 * @param tos         {@code RDMA_OPTION_ID_TOS}, or null for unset
 * @param options     the oracle's options ({@code reuse}, {@code afonly}, {@code ack=N}, {@code hold=ADDR#PORT},
 *                    {@code holdreuse}, {@code holdafonly}, {@code ibpath}, {@code ibpathflags0},
 *                    {@code failneigh=IFNAME}: the destination's neighbour entry set FAILED just before the
 *                    call); empty for none
 */
public record CmCase(String name, String destination, String source, int timeoutMs, Integer tos, List<String> options)
{
    public CmCase
    {
        if (!name.matches("[a-z0-9-]+"))
        {
            throw new IllegalArgumentException("case name '" + name + "': lower-case letters, digits and dashes");
        }
        options = List.copyOf(options);
    }

    public CmCase(final String name, final String destination, final String source, final int timeoutMs)
    {
        this(name, destination, source, timeoutMs, null, List.of());
    }

    public CmCase tos(final int value)
    {
        return new CmCase(name, destination, source, timeoutMs, value, options);
    }

    public CmCase options(final String... values)
    {
        return new CmCase(name, destination, source, timeoutMs, tos, Arrays.asList(values));
    }

    boolean has(final String option)
    {
        return options.contains(option);
    }

    /** The value of {@code key=VALUE} among the options, or null. */
    String option(final String key)
    {
        return options.stream().filter(o -> o.startsWith(key + "=")).map(o -> o.substring(key.length() + 1))
            .findFirst().orElse(null);
    }

    /** The oracle's input line: {@code NAME DST SRC TOS TIMEOUT_MS OPTIONS}. */
    String oracleLine()
    {
        return name + " " + destination + " " + (source == null ? "-" : source) + " " + (tos == null ? "-" : tos) + " " +
            timeoutMs + " " + (options.isEmpty() ? "-" : String.join(",", options));
    }
}

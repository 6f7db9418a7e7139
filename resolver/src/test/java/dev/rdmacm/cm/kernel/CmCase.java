package dev.rdmacm.cm.kernel;

/**
 * One case of the kernel-CM comparison: {@code rdma_resolve_addr(src, dst, timeout)} on a fresh id,
 * then {@code rdma_resolve_route(timeout)} when the address resolved.
 *
 * @param name      unique, used as the key of every output line
 * @param destination numeric address
 * @param source    numeric address, or null for none
 * @param timeoutMs for both calls
 */
record CmCase(String name, String destination, String source, int timeoutMs)
{
    CmCase
    {
        if (!name.matches("[a-z0-9-]+"))
        {
            throw new IllegalArgumentException("case name '" + name + "': lower-case letters, digits and dashes");
        }
    }

    /** The oracle's input line: {@code NAME DST SRC TOS TIMEOUT_MS}. */
    String oracleLine()
    {
        return name + " " + destination + " " + (source == null ? "-" : source) + " - " + timeoutMs;
    }
}

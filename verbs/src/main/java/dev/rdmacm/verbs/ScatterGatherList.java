package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.IBV_SGE;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable array of {@code struct ibv_sge} in native memory: the pieces of registered memory one
 * work request gathers from (a send, an RDMA write) or scatters into (a receive, an RDMA read).
 * Refill it with {@link #clear()} and {@link #add}; neither allocates, so a list made once serves
 * every post. Owns its memory; close it when done, after the work requests naming it completed.
 * <pre>
 *  struct ibv_sge (16 bytes): 0 addr (u64)  8 length (u32)  12 lkey (u32)
 * </pre>
 */
public final class ScatterGatherList implements AutoCloseable
{
    static final long ADDR_OFFSET = offset(IBV_SGE, "addr");
    static final long LENGTH_OFFSET = offset(IBV_SGE, "length");
    static final long LKEY_OFFSET = offset(IBV_SGE, "lkey");
    static final long SIZE = IBV_SGE.byteSize();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment entries;
    private final int capacity;
    private int count;
    private long totalLength;

    /** A list of up to {@code capacity} entries (at most the QP's max_send_sge / max_recv_sge are posted). */
    public ScatterGatherList(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("scatter/gather list: capacity " + capacity + " must be at least 1");
        }
        this.capacity = capacity;
        this.entries = arena.allocate(IBV_SGE, capacity);
    }

    /** Empties the list. */
    public ScatterGatherList clear()
    {
        count = 0;
        totalLength = 0;
        return this;
    }

    /**
     * Appends {@code length} bytes at {@code offset} in {@code region}.
     *
     * @throws IndexOutOfBoundsException naming the range and the region when it does not fit in it.
     * @throws IllegalStateException     when the list is full or the region closed.
     */
    public ScatterGatherList add(final MemoryRegion region, final long offset, final int length)
    {
        region.requireOpen("ibv_sge");
        final long size = region.memory().byteSize();
        if (offset < 0 || length < 0 || offset > size - length)
        {
            throw new IndexOutOfBoundsException("ibv_sge: " + length + " bytes at offset " + offset + " do not fit in " + region);
        }
        return put(region.memory().address() + offset, length, region.rawLkey());
    }

    /** Appends an entry as it is, unchecked: {@link #add} and the layout tests, which have no device. */
    ScatterGatherList put(final long address, final int length, final int lkey)
    {
        if (count == capacity)
        {
            throw new IllegalStateException("ibv_sge: the scatter/gather list is full (" + capacity + " entries)");
        }
        final long at = count * SIZE;
        entries.set(JAVA_LONG, at + ADDR_OFFSET, address);
        entries.set(JAVA_INT, at + LENGTH_OFFSET, length);
        entries.set(JAVA_INT, at + LKEY_OFFSET, lkey);
        count++;
        totalLength += length;
        return this;
    }

    /** How many entries the list holds. */
    public int count()
    {
        return count;
    }

    public int capacity()
    {
        return capacity;
    }

    /** The bytes of all entries together. */
    public long totalLength()
    {
        return totalLength;
    }

    MemorySegment segment()
    {
        return entries;
    }

    @Override
    public void close()
    {
        if (arena.scope().isAlive())
        {
            arena.close();
        }
    }

    @Override
    public String toString()
    {
        return "scatter/gather list of " + count + "/" + capacity + " entries, " + totalLength + " bytes";
    }
}

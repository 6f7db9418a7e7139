package dev.rdmacm.ibcm;

import org.agrona.collections.IntHashSet;

/**
 * Local communication IDs as ib_cm hands them out (cm.c {@code cm_alloc_id_priv}): an index taken
 * cyclically from a 32-bit space ({@code xa_alloc_cyclic(&cm.local_id_table, ..., xa_limit_32b,
 * &cm.local_id_next)}: the lowest free index at or after the one after the last, wrapping), then
 * XORed with a random operand drawn once per CM ({@code cm.random_id_operand}, {@code get_random_bytes}
 * in {@code ib_cm_init}), so that IDs are not guessable and a rebooted CM does not reuse its old ones.
 * <p>
 * The kernel XORs the host-order index, cast unswapped to {@code __be32}, with the operand and writes
 * the result big-endian: on a little-endian host the index's low byte ends up as the wire value's high
 * byte. {@link #toWire} does the same byte reversal, so consecutive IDs differ on the wire where the
 * kernel's do.
 */
final class CommIdAllocator
{
    private final int randomOperand;
    private final IntHashSet inUse = new IntHashSet();
    /** {@code cm.local_id_next}: where the next search starts. */
    private int next;

    CommIdAllocator(final int randomOperand)
    {
        this.randomOperand = randomOperand;
    }

    /** Allocates an index and returns its wire ID, an unsigned 32-bit value. */
    long allocate()
    {
        if (inUse.size() == -1 >>> 1)
        {
            throw new IllegalStateException("local comm IDs: all 2^31 in use");
        }
        int index = next;
        while (inUse.contains(index))
        {
            index++;
        }
        inUse.add(index);
        next = index + 1;
        return toWire(index);
    }

    void release(final long wireId)
    {
        inUse.remove(fromWire(wireId));
    }

    long toWire(final int index)
    {
        return Integer.toUnsignedLong(Integer.reverseBytes(index) ^ randomOperand);
    }

    int fromWire(final long wireId)
    {
        return Integer.reverseBytes((int)wireId ^ randomOperand);
    }
}

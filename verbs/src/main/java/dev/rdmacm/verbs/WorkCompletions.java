package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.BE32;
import static dev.rdmacm.verbs.IbvLayouts.IBV_WC;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A reusable array of {@code struct ibv_wc} in native memory that {@link CompletionQueue#poll} fills;
 * read entry {@code i} with the accessors. Owns its memory; close it when done.
 * <pre>
 *   0  wr_id (u64)
 *   8  status      12 opcode     16 vendor_err   20 byte_len
 *  24  imm_data (__be32)  28 qp_num     32 src_qp       36 wc_flags
 *  40  pkey_index (u16)  42 slid (u16)  44 sl (u8)  45 dlid_path_bits (u8)   48 bytes in all
 * </pre>
 */
public final class WorkCompletions implements AutoCloseable
{
    static final long WR_ID_OFFSET = offset(IBV_WC, "wr_id");
    static final long STATUS_OFFSET = offset(IBV_WC, "status");
    static final long OPCODE_OFFSET = offset(IBV_WC, "opcode");
    static final long VENDOR_ERR_OFFSET = offset(IBV_WC, "vendor_err");
    static final long BYTE_LEN_OFFSET = offset(IBV_WC, "byte_len");
    static final long IMM_DATA_OFFSET = offset(IBV_WC, "$imm", "imm_data");
    static final long QP_NUM_OFFSET = offset(IBV_WC, "qp_num");
    static final long SRC_QP_OFFSET = offset(IBV_WC, "src_qp");
    static final long WC_FLAGS_OFFSET = offset(IBV_WC, "wc_flags");
    static final long PKEY_INDEX_OFFSET = offset(IBV_WC, "pkey_index");
    static final long SLID_OFFSET = offset(IBV_WC, "slid");
    static final long SL_OFFSET = offset(IBV_WC, "sl");
    static final long SIZE = IBV_WC.byteSize();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment entries;
    private final int capacity;

    public WorkCompletions(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("work completions: capacity " + capacity + " must be at least 1");
        }
        this.capacity = capacity;
        this.entries = arena.allocate(IBV_WC, capacity);
    }

    public int capacity()
    {
        return capacity;
    }

    public long wrId(final int i)
    {
        return entries.get(JAVA_LONG, i * SIZE + WR_ID_OFFSET);
    }

    /** {@code IBV_WC_*} status; 0 is success. */
    public int status(final int i)
    {
        return entries.get(JAVA_INT, i * SIZE + STATUS_OFFSET);
    }

    /** The status by its {@code IBV_WC_*} name. */
    public CompletionStatus completionStatus(final int i)
    {
        return CompletionStatus.ofValue(status(i));
    }

    /** {@code IBV_WC_*} opcode; undefined when the status is not success. */
    public int opcode(final int i)
    {
        return entries.get(JAVA_INT, i * SIZE + OPCODE_OFFSET);
    }

    /** The opcode by its {@code IBV_WC_*} name; only meaningful when the status is success. */
    public CompletionOpcode completionOpcode(final int i)
    {
        return CompletionOpcode.ofValue(opcode(i));
    }

    /**
     * The immediate data, in host order (the wire and {@code ibv_wc} carry it big-endian); valid
     * only when {@link #flags} has {@code IBV_WC_WITH_IMM}.
     */
    public int immediateData(final int i)
    {
        return entries.get(BE32, i * SIZE + IMM_DATA_OFFSET);
    }

    /** Whether the completion carries immediate data ({@code IBV_WC_WITH_IMM}). */
    public boolean hasImmediateData(final int i)
    {
        return (flags(i) & IbvConstants.IBV_WC_WITH_IMM) != 0;
    }

    public long vendorError(final int i)
    {
        return Integer.toUnsignedLong(entries.get(JAVA_INT, i * SIZE + VENDOR_ERR_OFFSET));
    }

    public long byteLength(final int i)
    {
        return Integer.toUnsignedLong(entries.get(JAVA_INT, i * SIZE + BYTE_LEN_OFFSET));
    }

    public int qpNumber(final int i)
    {
        return entries.get(JAVA_INT, i * SIZE + QP_NUM_OFFSET);
    }

    public int sourceQp(final int i)
    {
        return entries.get(JAVA_INT, i * SIZE + SRC_QP_OFFSET);
    }

    public int flags(final int i)
    {
        return entries.get(JAVA_INT, i * SIZE + WC_FLAGS_OFFSET);
    }

    public int pkeyIndex(final int i)
    {
        return Short.toUnsignedInt(entries.get(JAVA_SHORT, i * SIZE + PKEY_INDEX_OFFSET));
    }

    public int sourceLid(final int i)
    {
        return Short.toUnsignedInt(entries.get(JAVA_SHORT, i * SIZE + SLID_OFFSET));
    }

    public int serviceLevel(final int i)
    {
        return Byte.toUnsignedInt(entries.get(JAVA_BYTE, i * SIZE + SL_OFFSET));
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
}

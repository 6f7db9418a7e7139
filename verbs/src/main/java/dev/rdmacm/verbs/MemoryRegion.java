package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.IBV_MR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Registered memory ({@code ibv_reg_mr}): the local key a scatter/gather entry names it by.
 * When the region allocated its memory itself, closing it frees that memory after deregistering.
 */
public final class MemoryRegion extends NativeResource
{
    static final long LKEY_OFFSET = offset(IBV_MR, "lkey");
    static final long RKEY_OFFSET = offset(IBV_MR, "rkey");
    /** The {@code IBV_ACCESS_*} flags this binding registers memory with. */
    public static final int ACCESS_FLAGS = IbvConstants.IBV_ACCESS_LOCAL_WRITE | IbvConstants.IBV_ACCESS_REMOTE_WRITE
        | IbvConstants.IBV_ACCESS_REMOTE_READ | IbvConstants.IBV_ACCESS_REMOTE_ATOMIC;

    private final MemorySegment mr;
    private final MemorySegment memory;
    private final Arena ownedMemory;
    private final int lkey;
    private final int rkey;

    MemoryRegion(final ProtectionDomain pd, final MemorySegment memory, final int access, final Arena ownedMemory)
    {
        super(pd.context().registry(), "MR of " + memory.byteSize() + " bytes on " + pd.context().deviceName());
        if ((access & ~ACCESS_FLAGS) != 0)
        {
            throw new IllegalArgumentException("ibv_reg_mr: access 0x" + Integer.toHexString(access)
                + " has bits outside IBV_ACCESS_LOCAL_WRITE|REMOTE_WRITE|REMOTE_READ|REMOTE_ATOMIC (0xf)");
        }
        this.memory = memory;
        this.ownedMemory = ownedMemory;
        mr = LibIbverbs.create("ibv_reg_mr", toString() + " access 0x" + Integer.toHexString(access),
            errno -> (MemorySegment)LibIbverbs.Resources.REG_MR.invokeExact(errno, pd.segment(), memory, memory.byteSize(), access))
            .reinterpret(IBV_MR.byteSize());
        lkey = mr.get(JAVA_INT, LKEY_OFFSET);
        rkey = mr.get(JAVA_INT, RKEY_OFFSET);
        register();
    }

    /** The registered memory. */
    public MemorySegment memory()
    {
        return memory;
    }

    /** The local key, as an unsigned 32-bit value. */
    public long lkey()
    {
        return Integer.toUnsignedLong(lkey);
    }

    /** The remote key, as an unsigned 32-bit value. */
    public long rkey()
    {
        return Integer.toUnsignedLong(rkey);
    }

    /** The address of the registered memory, what a peer's RDMA WRITE or READ names with the {@link #rkey()}. */
    public long address()
    {
        return memory.address();
    }

    int rawLkey()
    {
        return lkey;
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_dereg_mr", this::toString, errno -> (int)LibIbverbs.Resources.DEREG_MR.invokeExact(errno, mr));
        if (ownedMemory != null)
        {
            ownedMemory.close();
        }
    }
}

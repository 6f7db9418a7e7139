package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A protection domain ({@code ibv_alloc_pd}): the scope of memory regions, QPs and address handles.
 */
public final class ProtectionDomain extends NativeResource
{
    private final VerbsContext context;
    private final MemorySegment pd;

    ProtectionDomain(final VerbsContext owner)
    {
        super(owner.registry(), "PD on " + owner.deviceName());
        context = owner;
        pd = LibIbverbs.create("ibv_alloc_pd", owner.deviceName(),
            errno -> (MemorySegment)LibIbverbs.Resources.ALLOC_PD.invokeExact(errno, owner.segment()));
        register();
    }

    /**
     * {@code ibv_reg_mr} over memory the caller owns and keeps alive at least until the region is closed.
     *
     * @param access {@code IBV_ACCESS_*} flags: LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC
     *               ({@link MemoryRegion#ACCESS_FLAGS}); the remote ones need LOCAL_WRITE with them
     *               for WRITE and ATOMIC (the kernel says EINVAL otherwise).
     */
    public MemoryRegion registerMemory(final MemorySegment memory, final int access)
    {
        requireOpen("ibv_reg_mr");
        return new MemoryRegion(this, memory, access, null);
    }

    /** Allocates {@code length} bytes (page-aligned, zeroed) owned by the region, and registers them. */
    public MemoryRegion allocateMemoryRegion(final long length, final int access)
    {
        requireOpen("ibv_reg_mr");
        final Arena arena = Arena.ofShared();
        try
        {
            return new MemoryRegion(this, arena.allocate(length, 4096), access, arena);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /**
     * {@code ibv_create_qp} for an unreliable-datagram QP whose completions go to {@code sendCq} and
     * {@code recvCq}, in the RESET state.
     */
    public UdQueuePair createUdQueuePair(final CompletionQueue sendCq, final CompletionQueue recvCq,
        final QueuePairCapabilities capabilities)
    {
        requireOpen("ibv_create_qp");
        return new UdQueuePair(this, sendCq, recvCq, capabilities);
    }

    /**
     * {@code ibv_create_qp} for a reliable-connected QP whose completions go to {@code sendCq} and
     * {@code recvCq}, in the RESET state.
     */
    public RcQueuePair createRcQueuePair(final CompletionQueue sendCq, final CompletionQueue recvCq,
        final QueuePairCapabilities capabilities)
    {
        return createRcQueuePair(sendCq, recvCq, capabilities, QueuePairTransitionListener.none());
    }

    /** As {@link #createRcQueuePair(CompletionQueue, CompletionQueue, QueuePairCapabilities)}, every transition told to {@code listener}. */
    public RcQueuePair createRcQueuePair(final CompletionQueue sendCq, final CompletionQueue recvCq,
        final QueuePairCapabilities capabilities, final QueuePairTransitionListener listener)
    {
        requireOpen("ibv_create_qp");
        return new RcQueuePair(this, sendCq, recvCq, capabilities, listener);
    }

    /** {@code ibv_create_ah}: the address handle a UD send names its destination with. */
    public AddressHandle createAddressHandle(final AddressVector destination)
    {
        requireOpen("ibv_create_ah");
        return new AddressHandle(this, destination);
    }

    /**
     * {@code ibv_create_ah_from_wc}'s address: the way back to the sender of received completion
     * {@code index} of {@code completions}, from its GRH area {@code grh} (the first 40 bytes of the
     * receive buffer) on {@code port}, as libibverbs' {@code ibv_init_ah_from_wc} reads it: the sender's
     * GID (or, on RoCE v2 over IPv4, its IPv4 header's source) as the destination, the index of the
     * GID it was sent to as the source GID index, hop limit 0xff. Then {@link #createAddressHandle}.
     */
    public AddressVector replyAddress(final WorkCompletions completions, final int index, final MemorySegment grh, final int port)
    {
        requireOpen("ibv_init_ah_from_wc");
        if (index < 0 || index >= completions.capacity() || grh.byteSize() < IbvConstants.GRH_LENGTH || port < 1 || port > 255)
        {
            throw new IllegalArgumentException("ibv_init_ah_from_wc: completion " + index + " of " + completions.capacity()
                + ", a GRH area of " + grh.byteSize() + " bytes (40 needed) or port " + port + " (1-255) out of range");
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IbvLayouts.IBV_AH_ATTR);
            final MemorySegment wc = completions.segment().asSlice(index * WorkCompletions.SIZE, WorkCompletions.SIZE);
            LibIbverbs.check("ibv_init_ah_from_wc", toString() + " port " + port,
                errno -> (int)LibIbverbs.QueuePairs.INIT_AH_FROM_WC.invokeExact(errno, context.segment(), (byte)port, wc, grh, attr));
            return AddressHandle.read(attr).orElseThrow(() -> new VerbsException("ibv_init_ah_from_wc", Errno.EINVAL,
                "the address it gave names no port"));
        }
    }

    MemorySegment segment()
    {
        return pd;
    }

    VerbsContext context()
    {
        return context;
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_dealloc_pd", toString() + " (EBUSY: close its QPs, MRs and AHs first)",
            errno -> (int)LibIbverbs.Resources.DEALLOC_PD.invokeExact(errno, pd));
    }
}

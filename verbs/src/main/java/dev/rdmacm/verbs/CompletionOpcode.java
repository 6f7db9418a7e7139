package dev.rdmacm.verbs;

/**
 * What a work completion completed ({@code enum ibv_wc_opcode}); {@link #text()} is the C name.
 * Only valid in a successful completion: libibverbs leaves the opcode undefined on an error.
 */
public enum CompletionOpcode implements AbiEnum
{
    SEND(IbvConstants.IBV_WC_SEND),
    RDMA_WRITE(IbvConstants.IBV_WC_RDMA_WRITE),
    RDMA_READ(IbvConstants.IBV_WC_RDMA_READ),
    COMP_SWAP(IbvConstants.IBV_WC_COMP_SWAP),
    FETCH_ADD(IbvConstants.IBV_WC_FETCH_ADD),
    BIND_MW(IbvConstants.IBV_WC_BIND_MW),
    LOCAL_INV(IbvConstants.IBV_WC_LOCAL_INV),
    TSO(IbvConstants.IBV_WC_TSO),
    RECV(IbvConstants.IBV_WC_RECV),
    RECV_RDMA_WITH_IMM(IbvConstants.IBV_WC_RECV_RDMA_WITH_IMM);

    private final int value;

    CompletionOpcode(final int value)
    {
        this.value = value;
    }

    @Override
    public int value()
    {
        return value;
    }

    /** The C enumerator, e.g. {@code IBV_WC_RDMA_READ}. */
    @Override
    public String text()
    {
        return "IBV_WC_" + name();
    }

    /** Whether the completion is of a receive queue's work request. */
    public boolean isReceive()
    {
        return (value & IbvConstants.IBV_WC_RECV) != 0;
    }

    /**
     * The opcode for an {@code IBV_WC_*} value.
     *
     * @throws IllegalArgumentException naming the value when it is none of them.
     */
    public static CompletionOpcode ofValue(final int value)
    {
        final CompletionOpcode opcode = AbiEnum.ofValue(CompletionOpcode.class, value);
        if (opcode == null)
        {
            throw new IllegalArgumentException("wc opcode " + value + " is not an IBV_WC_* opcode this binding knows");
        }
        return opcode;
    }
}

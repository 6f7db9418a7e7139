package dev.rdmacm.cm;

import dev.rdmacm.protocol.sa.McMemberRecord.JoinState;

/**
 * The join flags of {@code rdma_join_multicast_ex} ({@code enum rdma_cm_mc_join_flags} in
 * {@code rdma_cma.h}), the only two the kernel's {@code ucma_process_join} takes from user space, and the
 * SA JoinState each asks for.
 */
public enum MulticastJoinFlag
{
    /** {@code RDMA_MC_JOIN_FLAG_FULLMEMBER} (0): sends and receives; librdmacm attaches the id's QP. */
    FULL_MEMBER(0, JoinState.FULL_MEMBER),
    /** {@code RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER} (1): may create the group, only sends; no QP attach. */
    SEND_ONLY_FULL_MEMBER(1, JoinState.SEND_ONLY_FULL_MEMBER);

    private final int value;
    private final int joinState;

    MulticastJoinFlag(final int value, final int joinState)
    {
        this.value = value;
        this.joinState = joinState;
    }

    /** {@return the {@code join_flags} value} */
    public int value()
    {
        return value;
    }

    /** {@return the MCMemberRecord JoinState bit this flag joins with} */
    public int joinState()
    {
        return joinState;
    }

    /** {@return whether this flag is a send-only join} */
    public boolean sendOnly()
    {
        return this == SEND_ONLY_FULL_MEMBER;
    }
}

package dev.rdmacm.verbs;

import java.util.StringJoiner;

import static dev.rdmacm.verbs.IbvConstants.*;

/**
 * The {@code enum ibv_qp_attr_mask} bits by name, for error messages: a refused
 * {@code ibv_modify_qp} says which attributes it was given, since the kernel's EINVAL does not say
 * which one it disliked.
 */
final class QpAttributeMask
{
    private static final int[] BITS = {
        IBV_QP_STATE, IBV_QP_CUR_STATE, IBV_QP_EN_SQD_ASYNC_NOTIFY, IBV_QP_ACCESS_FLAGS, IBV_QP_PKEY_INDEX, IBV_QP_PORT,
        IBV_QP_QKEY, IBV_QP_AV, IBV_QP_PATH_MTU, IBV_QP_TIMEOUT, IBV_QP_RETRY_CNT, IBV_QP_RNR_RETRY, IBV_QP_RQ_PSN,
        IBV_QP_MAX_QP_RD_ATOMIC, IBV_QP_ALT_PATH, IBV_QP_MIN_RNR_TIMER, IBV_QP_SQ_PSN, IBV_QP_MAX_DEST_RD_ATOMIC,
        IBV_QP_PATH_MIG_STATE, IBV_QP_CAP, IBV_QP_DEST_QPN, IBV_QP_RATE_LIMIT};
    private static final String[] NAMES = {
        "IBV_QP_STATE", "IBV_QP_CUR_STATE", "IBV_QP_EN_SQD_ASYNC_NOTIFY", "IBV_QP_ACCESS_FLAGS", "IBV_QP_PKEY_INDEX", "IBV_QP_PORT",
        "IBV_QP_QKEY", "IBV_QP_AV", "IBV_QP_PATH_MTU", "IBV_QP_TIMEOUT", "IBV_QP_RETRY_CNT", "IBV_QP_RNR_RETRY", "IBV_QP_RQ_PSN",
        "IBV_QP_MAX_QP_RD_ATOMIC", "IBV_QP_ALT_PATH", "IBV_QP_MIN_RNR_TIMER", "IBV_QP_SQ_PSN", "IBV_QP_MAX_DEST_RD_ATOMIC",
        "IBV_QP_PATH_MIG_STATE", "IBV_QP_CAP", "IBV_QP_DEST_QPN", "IBV_QP_RATE_LIMIT"};

    private QpAttributeMask()
    {
    }

    /** E.g. {@code 0x121 (IBV_QP_STATE|IBV_QP_PORT|IBV_QP_PATH_MTU)}; unknown bits are kept in hex. */
    static String describe(final int mask)
    {
        final StringJoiner names = new StringJoiner("|", "0x" + Integer.toHexString(mask) + " (", ")");
        int rest = mask;
        for (int i = 0; i < BITS.length; i++)
        {
            if ((mask & BITS[i]) != 0)
            {
                names.add(NAMES[i]);
                rest &= ~BITS[i];
            }
        }
        if (rest != 0)
        {
            names.add("0x" + Integer.toHexString(rest));
        }
        return names.toString();
    }
}

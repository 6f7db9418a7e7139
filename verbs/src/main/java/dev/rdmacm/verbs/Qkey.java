package dev.rdmacm.verbs;

/**
 * Q_Keys and the rule about privileged ones: a Q_Key with bit 31 set (such as the SA's and GSI's
 * well-known 0x80010000) may be set on a QP only with CAP_NET_RAW, or, since Linux 6.4, when
 * {@code rdma system set privileged-qkey on} allows it for everyone.
 */
public final class Qkey
{
    /** The Q_Key of QP1 (GSI), with which SA responses arrive (IBA 13.5.3.3). */
    public static final long GSI_QKEY = 0x8001_0000L;
    /** Bit 31: a controlled (privileged) Q_Key. */
    public static final long PRIVILEGED_BIT = 0x8000_0000L;

    private Qkey()
    {
    }

    public static boolean isPrivileged(final long qkey)
    {
        return (qkey & PRIVILEGED_BIT) != 0;
    }

    /**
     * The error for an {@code ibv_modify_qp} that failed while setting {@code qkey}: when the kernel
     * refused a privileged Q_Key (EPERM), it says how to get permission.
     */
    static VerbsException modifyFailure(final VerbsException failure, final long qkey)
    {
        if (failure.errno() != Errno.EPERM || !isPrivileged(qkey))
        {
            return failure;
        }
        return new VerbsException(failure.call(), failure.errno(), String.format(
            "the kernel refused the privileged Q_Key 0x%08x (bit 31 set): setting it needs CAP_NET_RAW, "
                + "or run `rdma system set privileged-qkey on` (Linux 6.4 or later) to allow it for every user", qkey));
    }

    static void requireValid(final long qkey)
    {
        if (qkey < 0 || qkey > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("Q_Key " + qkey + " is not a 32-bit unsigned value");
        }
    }
}

package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;

/**
 * Q_Keys and the rule about privileged ones: a Q_Key with bit 31 set (such as the SA's and GSI's
 * well-known {@link dev.rdmacm.protocol.mad.Gsi#QKEY}) may be set on a user QP only with CAP_NET_RAW (Linux 6.4, and the stable
 * kernels it was backported to), or, since Linux 6.7, when {@code rdma system set privileged-qkey on}
 * allows it for everyone.
 */
public final class Qkey
{
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
     * refused a privileged Q_Key (EPERM), it keeps what was being done and says how to get permission.
     * The kernel setting that allows it for everyone came with Linux 6.7 and was backported to stable
     * kernels (Debian 12's 6.1 has it), but the {@code rdma} tool of iproute2 6.1, Debian 12's, does
     * not know it: it prints "Unknown parameter" and still exits 0.
     */
    static VerbsException modifyFailure(final VerbsException failure, final long qkey)
    {
        if (failure.errno() != Errno.EPERM || !isPrivileged(qkey))
        {
            return failure;
        }
        final VerbsException explained = new VerbsException(failure.call(), failure.errno(), String.format(
            "%s: the kernel refused the privileged Q_Key 0x%08x (bit 31 set): setting it needs CAP_NET_RAW, or the kernel's "
                + "privileged-qkey mode on for every user: `rdma system set privileged-qkey on` (Linux 6.7, or a kernel with its "
                + "backport, and an rdma tool newer than iproute2 6.1's, which does not know the setting)", failure.detail(), qkey));
        explained.initCause(failure);
        return explained;
    }

    static void requireValid(final long qkey)
    {
        if (qkey < 0 || qkey > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("Q_Key " + qkey + " is not a 32-bit unsigned value");
        }
    }
}

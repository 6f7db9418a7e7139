package dev.rdmacm.umad;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over {@code struct ib_user_mad_reg_req2} ({@code <rdma/ib_user_mad.h>}), the argument of
 * {@code IB_USER_MAD_REGISTER_AGENT2}; the kernel writes the new agent's id back into {@code id}, and,
 * when it refuses {@code flags}, the flags it supports.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                       id (out, host)                          |  0
 *  |                       qpn (host: 0 SMI, 1 GSI)                |  4
 *  +---------------+---------------+-------------------------------+
 *  |  mgmt_class   | class_version |            res                |  8
 *  +---------------+---------------+-------------------------------+
 *  |                       flags (host)                            | 12
 *  |                       method_mask[0] (host u64: methods 0-63) | 16
 *  |                                                               |
 *  |                       method_mask[1] (methods 64-127)         | 24
 *  |                                                               |
 *  |                       oui (host, 24 bits)                     | 32
 *  +---------------+-----------------------------------------------+
 *  | rmpp_version  |                 reserved[3]                   | 36
 *  +---------------+-----------------------------------------------+
 * </pre>
 * Every field is the CPU's order: this struct never leaves the host.
 */
final class AgentRegistrationRequest extends Flyweight
{
    static final int ID_OFFSET = 0;
    static final int QPN_OFFSET = 4;
    static final int MGMT_CLASS_OFFSET = 8;
    static final int MGMT_CLASS_VERSION_OFFSET = 9;
    static final int RES_OFFSET = 10;
    static final int FLAGS_OFFSET = 12;
    static final int METHOD_MASK_OFFSET = 16;
    static final int OUI_OFFSET = 32;
    static final int RMPP_VERSION_OFFSET = 36;
    static final int RESERVED_OFFSET = 37;
    static final int LENGTH = 40;

    AgentRegistrationRequest wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Writes the whole request for {@code registration} on QP {@code qpn}, every other byte zero. */
    AgentRegistrationRequest encode(final AgentRegistration registration, final int qpn)
    {
        zero(0, LENGTH);
        putHostU32(QPN_OFFSET, qpn);
        putU8(MGMT_CLASS_OFFSET, registration.managementClass());
        putU8(MGMT_CLASS_VERSION_OFFSET, registration.classVersion());
        putHostU64(METHOD_MASK_OFFSET, registration.methodMaskLow());
        putHostU64(METHOD_MASK_OFFSET + 8, registration.methodMaskHigh());
        putU8(RMPP_VERSION_OFFSET, registration.rmppVersion());
        return this;
    }

    int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    long flags()
    {
        return hostU32(FLAGS_OFFSET);
    }
}

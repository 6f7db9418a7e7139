package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.RejectReason;

/**
 * What a connection tells its consumer, one record per ib_cm event ({@code enum ib_cm_event_type}); the
 * names say which. Private data is the whole private-data field of the message (ib_cm hands the
 * consumer a pointer to all of it; the message does not say how much is meaningful), copied.
 */
public sealed interface IbCmEvent
{
    /** {@code IB_CM_REQ_RECEIVED}: a new connection from a listener; accept, reject or MRA it. */
    record RequestReceived(long serviceId, long remoteCaGuid, int remoteQpn, int remoteCommId, IbCmPath path,
                           int responderResources, int initiatorDepth, int remoteCmResponseTimeout,
                           int localCmResponseTimeout, int retryCount, int rnrRetryCount, boolean flowControl,
                           boolean srq, IbCmPeerAddress from, byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_REQ_ERROR}: no REP or REJ came after every REQ retry (rdma_cm: UNREACHABLE, ETIMEDOUT). */
    record RequestTimedOut() implements IbCmEvent
    {
    }

    /** {@code IB_CM_REP_RECEIVED}: the passive side accepted; the engine sends the RTU unless MRA'd. */
    record ReplyReceived(int remoteQpn, int startingPsn, int responderResources, int initiatorDepth,
                         int targetAckDelay, int failoverAccepted, boolean flowControl, int rnrRetryCount,
                         boolean srq, long remoteCaGuid, byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_REP_ERROR}: no RTU (and no first receive) after every REP retry. */
    record ReplyTimedOut() implements IbCmEvent
    {
    }

    /** How a connection became ESTABLISHED. */
    enum EstablishedBy
    {
        /** The active side sent its RTU (rdma_cm's ESTABLISHED on the active side). */
        RTU_SENT,
        /** {@code IB_CM_RTU_RECEIVED}. */
        RTU_RECEIVED,
        /** {@code IB_CM_USER_ESTABLISHED}: the QP's first receive (COMM_EST) came before the RTU. */
        COMMUNICATION_ESTABLISHED
    }

    /** The connection is ESTABLISHED; {@code privateData} is the RTU's when one was received, else empty. */
    record Established(EstablishedBy by, byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_MRA_RECEIVED}: the peer needs {@code serviceTimeout} (exponent) more. */
    record MraReceived(int serviceTimeout, byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_REJ_RECEIVED}. */
    record Rejected(int reason, byte[] ari, byte[] privateData) implements IbCmEvent
    {
        /** The reason by name, or {@code null} for a code IBA does not assign. */
        public RejectReason rejectReason()
        {
            return RejectReason.fromCode(reason);
        }
    }

    /** {@code IB_CM_DREQ_RECEIVED}: answer with {@link IbCmConnection#drep}. */
    record DisconnectRequested(byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_DREP_RECEIVED}: the connection is in TIMEWAIT. */
    record DisconnectReplyReceived(byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_DREQ_ERROR}: no DREP after every DREQ retry; the connection is in TIMEWAIT anyway. */
    record DisconnectRequestTimedOut() implements IbCmEvent
    {
    }

    /** {@code IB_CM_TIMEWAIT_EXIT}: the connection is IDLE; its QP may be reused. */
    record TimewaitExit() implements IbCmEvent
    {
    }

    /** {@code IB_CM_SIDR_REQ_RECEIVED}: answer with {@link IbCmConnection#sidrReply}. */
    record SidrRequestReceived(long serviceId, int pkey, IbCmPeerAddress from, byte[] privateData) implements IbCmEvent
    {
    }

    /** {@code IB_CM_SIDR_REP_RECEIVED}. */
    record SidrReplyReceived(int status, int qpn, long qKey, byte[] additionalInfo, byte[] privateData)
        implements IbCmEvent
    {
    }

    /** {@code IB_CM_SIDR_REQ_ERROR}: no SIDR_REP after every retry. */
    record SidrRequestTimedOut() implements IbCmEvent
    {
    }

    /** A step of the consumer's failed (its QP transition threw); the engine rejected and the connection is over. */
    record ConnectError(RuntimeException cause) implements IbCmEvent
    {
    }
}

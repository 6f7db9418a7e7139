package dev.rdmacm.protocol.cm;

/**
 * The states of one communication (IBA 12.9.6's state diagrams, named as the kernel's
 * {@code enum ib_cm_state} in include/rdma/ib_cm.h names them). LAP's own states ({@code ib_cm_lap_state})
 * are not here: this engine does not load alternate paths.
 */
public enum IbCmState
{
    IDLE,
    LISTEN,
    REQ_SENT,
    REQ_RCVD,
    MRA_REQ_SENT,
    MRA_REQ_RCVD,
    REP_SENT,
    REP_RCVD,
    MRA_REP_SENT,
    MRA_REP_RCVD,
    ESTABLISHED,
    DREQ_SENT,
    DREQ_RCVD,
    TIMEWAIT,
    SIDR_REQ_SENT,
    SIDR_REQ_RCVD
}

/*
 * Where every field of the CM messages lies, as the Linux kernel's include/rdma/ibta_vol1_c12.h
 * (IBTA volume 1 chapter 12, Tables 106-120, with the ECE vendor IDs of IBA comment 9434) defines
 * it, restated as plain numbers so that a C test program can place values without the kernel's
 * macros:
 *   scalar fields: byte offset, first bit (0 = the byte's most significant bit), width in bits;
 *   byte blocks:   byte offset, length in bytes.
 * Byte offsets count from the start of the CM message, i.e. before the kernel adds
 * sizeof(struct ib_mad_hdr). A kernel CM_FIELD32_LOC(m, 5, 24) is "5, 0, 24";
 * CM_FIELD_BLOC(m, 43, 5, 2) is "43, 5, 2"; CM_FIELD_MLOC(m, 140, 736, void) is "140, 92".
 */

/* Table 106 REQ */
#define CM_REQ_LOCAL_COMM_ID                 0, 0, 32
#define CM_REQ_VENDOR_ID                     5, 0, 24
#define CM_REQ_SERVICE_ID                    8, 0, 64
#define CM_REQ_LOCAL_CA_GUID                16, 0, 64
#define CM_REQ_LOCAL_Q_KEY                  28, 0, 32
#define CM_REQ_LOCAL_QPN                    32, 0, 24
#define CM_REQ_RESPONDER_RESOURCES          35, 0, 8
#define CM_REQ_LOCAL_EECN                   36, 0, 24
#define CM_REQ_INITIATOR_DEPTH              39, 0, 8
#define CM_REQ_REMOTE_EECN                  40, 0, 24
#define CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT   43, 0, 5
#define CM_REQ_TRANSPORT_SERVICE_TYPE       43, 5, 2
#define CM_REQ_END_TO_END_FLOW_CONTROL      43, 7, 1
#define CM_REQ_STARTING_PSN                 44, 0, 24
#define CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT    47, 0, 5
#define CM_REQ_RETRY_COUNT                  47, 5, 3
#define CM_REQ_PARTITION_KEY                48, 0, 16
#define CM_REQ_PATH_PACKET_PAYLOAD_MTU      50, 0, 4
#define CM_REQ_RDC_EXISTS                   50, 4, 1
#define CM_REQ_RNR_RETRY_COUNT              50, 5, 3
#define CM_REQ_MAX_CM_RETRIES               51, 0, 4
#define CM_REQ_SRQ                          51, 4, 1
#define CM_REQ_EXTENDED_TRANSPORT_TYPE      51, 5, 3
#define CM_REQ_PRIMARY_LOCAL_PORT_LID       52, 0, 16
#define CM_REQ_PRIMARY_REMOTE_PORT_LID      54, 0, 16
#define CM_REQ_PRIMARY_LOCAL_PORT_GID       56, 16
#define CM_REQ_PRIMARY_REMOTE_PORT_GID      72, 16
#define CM_REQ_PRIMARY_FLOW_LABEL           88, 0, 20
#define CM_REQ_PRIMARY_PACKET_RATE          91, 2, 6
#define CM_REQ_PRIMARY_TRAFFIC_CLASS        92, 0, 8
#define CM_REQ_PRIMARY_HOP_LIMIT            93, 0, 8
#define CM_REQ_PRIMARY_SL                   94, 0, 4
#define CM_REQ_PRIMARY_SUBNET_LOCAL         94, 4, 1
#define CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT    95, 0, 5
#define CM_REQ_ALTERNATE_LOCAL_PORT_LID     96, 0, 16
#define CM_REQ_ALTERNATE_REMOTE_PORT_LID    98, 0, 16
#define CM_REQ_ALTERNATE_LOCAL_PORT_GID    100, 16
#define CM_REQ_ALTERNATE_REMOTE_PORT_GID   116, 16
#define CM_REQ_ALTERNATE_FLOW_LABEL        132, 0, 20
#define CM_REQ_ALTERNATE_PACKET_RATE       135, 2, 6
#define CM_REQ_ALTERNATE_TRAFFIC_CLASS     136, 0, 8
#define CM_REQ_ALTERNATE_HOP_LIMIT         137, 0, 8
#define CM_REQ_ALTERNATE_SL                138, 0, 4
#define CM_REQ_ALTERNATE_SUBNET_LOCAL      138, 4, 1
#define CM_REQ_ALTERNATE_LOCAL_ACK_TIMEOUT 139, 0, 5
#define CM_REQ_SAP_SUPPORTED               139, 5, 1
#define CM_REQ_PRIVATE_DATA                140, 92

/* Table 107 MRA */
#define CM_MRA_LOCAL_COMM_ID                 0, 0, 32
#define CM_MRA_REMOTE_COMM_ID                4, 0, 32
#define CM_MRA_MESSAGE_MRAED                 8, 0, 2
#define CM_MRA_SERVICE_TIMEOUT               9, 0, 5
#define CM_MRA_PRIVATE_DATA                 10, 222

/* Table 108 REJ */
#define CM_REJ_LOCAL_COMM_ID                 0, 0, 32
#define CM_REJ_REMOTE_COMM_ID                4, 0, 32
#define CM_REJ_MESSAGE_REJECTED              8, 0, 2
#define CM_REJ_REJECTED_INFO_LENGTH          9, 0, 7
#define CM_REJ_REASON                       10, 0, 16
#define CM_REJ_ARI                          12, 72
#define CM_REJ_PRIVATE_DATA                 84, 148

/* Table 110 REP */
#define CM_REP_LOCAL_COMM_ID                 0, 0, 32
#define CM_REP_REMOTE_COMM_ID                4, 0, 32
#define CM_REP_LOCAL_Q_KEY                   8, 0, 32
#define CM_REP_LOCAL_QPN                    12, 0, 24
#define CM_REP_VENDOR_ID_H                  15, 0, 8
#define CM_REP_LOCAL_EE_CONTEXT_NUMBER      16, 0, 24
#define CM_REP_VENDOR_ID_M                  19, 0, 8
#define CM_REP_STARTING_PSN                 20, 0, 24
#define CM_REP_VENDOR_ID_L                  23, 0, 8
#define CM_REP_RESPONDER_RESOURCES          24, 0, 8
#define CM_REP_INITIATOR_DEPTH              25, 0, 8
#define CM_REP_TARGET_ACK_DELAY             26, 0, 5
#define CM_REP_FAILOVER_ACCEPTED            26, 5, 2
#define CM_REP_END_TO_END_FLOW_CONTROL      26, 7, 1
#define CM_REP_RNR_RETRY_COUNT              27, 0, 3
#define CM_REP_SRQ                          27, 3, 1
#define CM_REP_LOCAL_CA_GUID                28, 0, 64
#define CM_REP_PRIVATE_DATA                 36, 196

/* Table 111 RTU */
#define CM_RTU_LOCAL_COMM_ID                 0, 0, 32
#define CM_RTU_REMOTE_COMM_ID                4, 0, 32
#define CM_RTU_PRIVATE_DATA                  8, 224

/* Table 112 DREQ */
#define CM_DREQ_LOCAL_COMM_ID                0, 0, 32
#define CM_DREQ_REMOTE_COMM_ID               4, 0, 32
#define CM_DREQ_REMOTE_QPN_EECN              8, 0, 24
#define CM_DREQ_PRIVATE_DATA                12, 220

/* Table 113 DREP */
#define CM_DREP_LOCAL_COMM_ID                0, 0, 32
#define CM_DREP_REMOTE_COMM_ID               4, 0, 32
#define CM_DREP_PRIVATE_DATA                 8, 224

/* Table 115 LAP */
#define CM_LAP_LOCAL_COMM_ID                 0, 0, 32
#define CM_LAP_REMOTE_COMM_ID                4, 0, 32
#define CM_LAP_REMOTE_QPN_EECN              12, 0, 24
#define CM_LAP_REMOTE_CM_RESPONSE_TIMEOUT   15, 0, 5
#define CM_LAP_ALTERNATE_LOCAL_PORT_LID     20, 0, 16
#define CM_LAP_ALTERNATE_REMOTE_PORT_LID    22, 0, 16
#define CM_LAP_ALTERNATE_LOCAL_PORT_GID     24, 16
#define CM_LAP_ALTERNATE_REMOTE_PORT_GID    40, 16
#define CM_LAP_ALTERNATE_FLOW_LABEL         56, 0, 20
#define CM_LAP_ALTERNATE_TRAFFIC_CLASS      59, 0, 8
#define CM_LAP_ALTERNATE_HOP_LIMIT          60, 0, 8
#define CM_LAP_ALTERNATE_PACKET_RATE        61, 2, 6
#define CM_LAP_ALTERNATE_SL                 62, 0, 4
#define CM_LAP_ALTERNATE_SUBNET_LOCAL       62, 4, 1
#define CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT  63, 0, 5
#define CM_LAP_PRIVATE_DATA                 64, 168

/* Table 116 APR */
#define CM_APR_LOCAL_COMM_ID                 0, 0, 32
#define CM_APR_REMOTE_COMM_ID                4, 0, 32
#define CM_APR_ADDITIONAL_INFORMATION_LENGTH 8, 0, 8
#define CM_APR_AR_STATUS                     9, 0, 8
#define CM_APR_ADDITIONAL_INFORMATION       12, 72
#define CM_APR_PRIVATE_DATA                 84, 148

/* Table 119 SIDR_REQ */
#define CM_SIDR_REQ_REQUESTID                0, 0, 32
#define CM_SIDR_REQ_PARTITION_KEY            4, 0, 16
#define CM_SIDR_REQ_SERVICEID                8, 0, 64
#define CM_SIDR_REQ_PRIVATE_DATA            16, 216

/* Table 120 SIDR_REP */
#define CM_SIDR_REP_REQUESTID                0, 0, 32
#define CM_SIDR_REP_STATUS                   4, 0, 8
#define CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH 5, 0, 8
#define CM_SIDR_REP_VENDOR_ID_H              6, 0, 16
#define CM_SIDR_REP_QPN                      8, 0, 24
#define CM_SIDR_REP_VENDOR_ID_L             11, 0, 8
#define CM_SIDR_REP_SERVICEID               12, 0, 64
#define CM_SIDR_REP_Q_KEY                   20, 0, 32
#define CM_SIDR_REP_ADDITIONAL_INFORMATION  24, 72
#define CM_SIDR_REP_PRIVATE_DATA            96, 136

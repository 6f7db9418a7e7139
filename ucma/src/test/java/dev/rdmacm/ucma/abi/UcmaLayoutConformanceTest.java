package dev.rdmacm.ucma.abi;

import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ucma ABI as this module writes it by hand, against the kernel's uapi header
 * {@code <rdma/rdma_user_cm.h>} (with {@code ib_user_verbs.h} and {@code ib_user_sa.h}, which it
 * includes) compiled with gcc: every struct's size, every member's offset and size, every command
 * number and every constant; the event numbers and the QP types against librdmacm's and libibverbs'
 * headers, which use the kernel's numbers.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UcmaLayoutConformanceTest
{
    private static final String UCMA_H = "#include <rdma/rdma_user_cm.h>";

    @BeforeAll
    static void requireHeaders()
    {
        Peers.requireFile("/usr/include/rdma/rdma_user_cm.h", "linux-libc-dev");
    }

    /** {@code offsetof} and member {@code sizeof} of {@code struct NAME}, against the Java offset and size. */
    private static void member(final Map<String, Number> expected, final String struct, final String member, final int offset,
        final int size)
    {
        expected.put("offsetof(struct " + struct + ", " + member + ")", offset);
        expected.put("sizeof(((struct " + struct + " *)0)->" + member + ")", size);
    }

    private static void size(final Map<String, Number> expected, final UcmaStruct<?> flyweight)
    {
        expected.put("sizeof(struct " + flyweight.cName() + ")", flyweight.length());
    }

    @Test
    void shouldMatchTheHeaderForTheCommandStructs()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        size(expected, new CommandHeader());
        member(expected, "rdma_ucm_cmd_hdr", "cmd", CommandHeader.CMD_OFFSET, 4);
        member(expected, "rdma_ucm_cmd_hdr", "in", CommandHeader.IN_OFFSET, 2);
        member(expected, "rdma_ucm_cmd_hdr", "out", CommandHeader.OUT_OFFSET, 2);

        size(expected, new UcmCreateId());
        member(expected, "rdma_ucm_create_id", "uid", UcmCreateId.UID_OFFSET, 8);
        member(expected, "rdma_ucm_create_id", "response", UcmCreateId.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_create_id", "ps", UcmCreateId.PS_OFFSET, 2);
        member(expected, "rdma_ucm_create_id", "qp_type", UcmCreateId.QP_TYPE_OFFSET, 1);
        member(expected, "rdma_ucm_create_id", "reserved", UcmCreateId.RESERVED_OFFSET, UcmCreateId.RESERVED_LENGTH);
        size(expected, new IdResponse());
        member(expected, "rdma_ucm_create_id_resp", "id", IdResponse.ID_OFFSET, 4);

        size(expected, new UcmDestroyId());
        member(expected, "rdma_ucm_destroy_id", "response", UcmDestroyId.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_destroy_id", "id", UcmDestroyId.ID_OFFSET, 4);
        member(expected, "rdma_ucm_destroy_id", "reserved", UcmDestroyId.RESERVED_OFFSET, 4);
        size(expected, new EventsReportedResponse());
        member(expected, "rdma_ucm_destroy_id_resp", "events_reported", EventsReportedResponse.EVENTS_REPORTED_OFFSET, 4);
        member(expected, "rdma_ucm_migrate_resp", "events_reported", EventsReportedResponse.EVENTS_REPORTED_OFFSET, 4);
        expected.put("sizeof(struct rdma_ucm_migrate_resp)", EventsReportedResponse.LENGTH);

        size(expected, new UcmBind());
        member(expected, "rdma_ucm_bind", "id", UcmBind.ID_OFFSET, 4);
        member(expected, "rdma_ucm_bind", "addr_size", UcmBind.ADDR_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_bind", "reserved", UcmBind.RESERVED_OFFSET, 2);
        member(expected, "rdma_ucm_bind", "addr", UcmBind.ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);

        size(expected, new UcmResolveIp());
        member(expected, "rdma_ucm_resolve_ip", "src_addr", UcmResolveIp.SRC_ADDR_OFFSET, UcmaStruct.SOCKADDR_IN6_LENGTH);
        member(expected, "rdma_ucm_resolve_ip", "dst_addr", UcmResolveIp.DST_ADDR_OFFSET, UcmaStruct.SOCKADDR_IN6_LENGTH);
        member(expected, "rdma_ucm_resolve_ip", "id", UcmResolveIp.ID_OFFSET, 4);
        member(expected, "rdma_ucm_resolve_ip", "timeout_ms", UcmResolveIp.TIMEOUT_MS_OFFSET, 4);

        size(expected, new UcmResolveAddr());
        member(expected, "rdma_ucm_resolve_addr", "id", UcmResolveAddr.ID_OFFSET, 4);
        member(expected, "rdma_ucm_resolve_addr", "timeout_ms", UcmResolveAddr.TIMEOUT_MS_OFFSET, 4);
        member(expected, "rdma_ucm_resolve_addr", "src_size", UcmResolveAddr.SRC_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_resolve_addr", "dst_size", UcmResolveAddr.DST_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_resolve_addr", "reserved", UcmResolveAddr.RESERVED_OFFSET, 4);
        member(expected, "rdma_ucm_resolve_addr", "src_addr", UcmResolveAddr.SRC_ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);
        member(expected, "rdma_ucm_resolve_addr", "dst_addr", UcmResolveAddr.DST_ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);

        size(expected, new UcmResolveRoute());
        member(expected, "rdma_ucm_resolve_route", "id", UcmResolveRoute.ID_OFFSET, 4);
        member(expected, "rdma_ucm_resolve_route", "timeout_ms", UcmResolveRoute.TIMEOUT_MS_OFFSET, 4);

        size(expected, new UcmQuery());
        member(expected, "rdma_ucm_query", "response", UcmQuery.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_query", "id", UcmQuery.ID_OFFSET, 4);
        member(expected, "rdma_ucm_query", "option", UcmQuery.OPTION_OFFSET, 4);

        size(expected, new UcmListen());
        member(expected, "rdma_ucm_listen", "id", UcmListen.ID_OFFSET, 4);
        member(expected, "rdma_ucm_listen", "backlog", UcmListen.BACKLOG_OFFSET, 4);
        size(expected, new UcmDisconnect());
        member(expected, "rdma_ucm_disconnect", "id", UcmDisconnect.ID_OFFSET, 4);
        size(expected, new UcmNotify());
        member(expected, "rdma_ucm_notify", "id", UcmNotify.ID_OFFSET, 4);
        member(expected, "rdma_ucm_notify", "event", UcmNotify.EVENT_OFFSET, 4);

        size(expected, new UcmInitQpAttr());
        member(expected, "rdma_ucm_init_qp_attr", "response", UcmInitQpAttr.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_init_qp_attr", "id", UcmInitQpAttr.ID_OFFSET, 4);
        member(expected, "rdma_ucm_init_qp_attr", "qp_state", UcmInitQpAttr.QP_STATE_OFFSET, 4);

        size(expected, new UcmGetEvent());
        member(expected, "rdma_ucm_get_event", "response", UcmGetEvent.RESPONSE_OFFSET, 8);

        size(expected, new UcmSetOption());
        member(expected, "rdma_ucm_set_option", "optval", UcmSetOption.OPTVAL_OFFSET, 8);
        member(expected, "rdma_ucm_set_option", "id", UcmSetOption.ID_OFFSET, 4);
        member(expected, "rdma_ucm_set_option", "level", UcmSetOption.LEVEL_OFFSET, 4);
        member(expected, "rdma_ucm_set_option", "optname", UcmSetOption.OPTNAME_OFFSET, 4);
        member(expected, "rdma_ucm_set_option", "optlen", UcmSetOption.OPTLEN_OFFSET, 4);

        size(expected, new UcmMigrateId());
        member(expected, "rdma_ucm_migrate_id", "response", UcmMigrateId.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_migrate_id", "id", UcmMigrateId.ID_OFFSET, 4);
        member(expected, "rdma_ucm_migrate_id", "fd", UcmMigrateId.FD_OFFSET, 4);

        size(expected, new UcmJoinIpMcast());
        member(expected, "rdma_ucm_join_ip_mcast", "response", UcmJoinIpMcast.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_join_ip_mcast", "uid", UcmJoinIpMcast.UID_OFFSET, 8);
        member(expected, "rdma_ucm_join_ip_mcast", "addr", UcmJoinIpMcast.ADDR_OFFSET, UcmaStruct.SOCKADDR_IN6_LENGTH);
        member(expected, "rdma_ucm_join_ip_mcast", "id", UcmJoinIpMcast.ID_OFFSET, 4);

        size(expected, new UcmJoinMcast());
        member(expected, "rdma_ucm_join_mcast", "response", UcmJoinMcast.RESPONSE_OFFSET, 8);
        member(expected, "rdma_ucm_join_mcast", "uid", UcmJoinMcast.UID_OFFSET, 8);
        member(expected, "rdma_ucm_join_mcast", "id", UcmJoinMcast.ID_OFFSET, 4);
        member(expected, "rdma_ucm_join_mcast", "addr_size", UcmJoinMcast.ADDR_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_join_mcast", "join_flags", UcmJoinMcast.JOIN_FLAGS_OFFSET, 2);
        member(expected, "rdma_ucm_join_mcast", "addr", UcmJoinMcast.ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);

        CHeaders.assertValues(UCMA_H, expected);
    }

    @Test
    void shouldMatchTheHeaderForTheConnectionStructs()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        size(expected, new ConnParam());
        member(expected, "rdma_ucm_conn_param", "qp_num", ConnParam.QP_NUM_OFFSET, 4);
        member(expected, "rdma_ucm_conn_param", "qkey", ConnParam.QKEY_OFFSET, 4);
        member(expected, "rdma_ucm_conn_param", "private_data", ConnParam.PRIVATE_DATA_OFFSET, UcmaConstants.MAX_PRIVATE_DATA);
        member(expected, "rdma_ucm_conn_param", "private_data_len", ConnParam.PRIVATE_DATA_LEN_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "srq", ConnParam.SRQ_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "responder_resources", ConnParam.RESPONDER_RESOURCES_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "initiator_depth", ConnParam.INITIATOR_DEPTH_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "flow_control", ConnParam.FLOW_CONTROL_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "retry_count", ConnParam.RETRY_COUNT_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "rnr_retry_count", ConnParam.RNR_RETRY_COUNT_OFFSET, 1);
        member(expected, "rdma_ucm_conn_param", "valid", ConnParam.VALID_OFFSET, 1);

        size(expected, new UverbsAhAttr());
        expected.put("sizeof(struct ib_uverbs_global_route)", UverbsAhAttr.GRH_LENGTH);
        member(expected, "ib_uverbs_ah_attr", "grh.dgid", UverbsAhAttr.DGID_OFFSET, 16);
        member(expected, "ib_uverbs_ah_attr", "grh.flow_label", UverbsAhAttr.FLOW_LABEL_OFFSET, 4);
        member(expected, "ib_uverbs_ah_attr", "grh.sgid_index", UverbsAhAttr.SGID_INDEX_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "grh.hop_limit", UverbsAhAttr.HOP_LIMIT_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "grh.traffic_class", UverbsAhAttr.TRAFFIC_CLASS_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "grh.reserved", UverbsAhAttr.GRH_RESERVED_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "dlid", UverbsAhAttr.DLID_OFFSET, 2);
        member(expected, "ib_uverbs_ah_attr", "sl", UverbsAhAttr.SL_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "src_path_bits", UverbsAhAttr.SRC_PATH_BITS_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "static_rate", UverbsAhAttr.STATIC_RATE_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "is_global", UverbsAhAttr.IS_GLOBAL_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "port_num", UverbsAhAttr.PORT_NUM_OFFSET, 1);
        member(expected, "ib_uverbs_ah_attr", "reserved", UverbsAhAttr.RESERVED_OFFSET, 1);

        size(expected, new UdParam());
        member(expected, "rdma_ucm_ud_param", "qp_num", UdParam.QP_NUM_OFFSET, 4);
        member(expected, "rdma_ucm_ud_param", "qkey", UdParam.QKEY_OFFSET, 4);
        member(expected, "rdma_ucm_ud_param", "ah_attr", UdParam.AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
        member(expected, "rdma_ucm_ud_param", "private_data", UdParam.PRIVATE_DATA_OFFSET, UcmaConstants.MAX_PRIVATE_DATA);
        member(expected, "rdma_ucm_ud_param", "private_data_len", UdParam.PRIVATE_DATA_LEN_OFFSET, 1);
        member(expected, "rdma_ucm_ud_param", "reserved", UdParam.RESERVED_OFFSET, UdParam.RESERVED_LENGTH);

        size(expected, new UcmConnect());
        member(expected, "rdma_ucm_connect", "conn_param", UcmConnect.CONN_PARAM_OFFSET, ConnParam.LENGTH);
        member(expected, "rdma_ucm_connect", "id", UcmConnect.ID_OFFSET, 4);
        member(expected, "rdma_ucm_connect", "reserved", UcmConnect.RESERVED_OFFSET, 4);
        member(expected, "rdma_ucm_connect", "ece.vendor_id", UcmConnect.ECE_VENDOR_ID_OFFSET, 4);
        member(expected, "rdma_ucm_connect", "ece.attr_mod", UcmConnect.ECE_ATTR_MOD_OFFSET, 4);

        size(expected, new UcmAccept());
        member(expected, "rdma_ucm_accept", "uid", UcmAccept.UID_OFFSET, 8);
        member(expected, "rdma_ucm_accept", "conn_param", UcmAccept.CONN_PARAM_OFFSET, ConnParam.LENGTH);
        member(expected, "rdma_ucm_accept", "id", UcmAccept.ID_OFFSET, 4);
        member(expected, "rdma_ucm_accept", "reserved", UcmAccept.RESERVED_OFFSET, 4);
        member(expected, "rdma_ucm_accept", "ece.vendor_id", UcmAccept.ECE_VENDOR_ID_OFFSET, 4);
        member(expected, "rdma_ucm_accept", "ece.attr_mod", UcmAccept.ECE_ATTR_MOD_OFFSET, 4);

        size(expected, new UcmReject());
        member(expected, "rdma_ucm_reject", "id", UcmReject.ID_OFFSET, 4);
        member(expected, "rdma_ucm_reject", "private_data_len", UcmReject.PRIVATE_DATA_LEN_OFFSET, 1);
        member(expected, "rdma_ucm_reject", "reason", UcmReject.REASON_OFFSET, 1);
        member(expected, "rdma_ucm_reject", "reserved", UcmReject.RESERVED_OFFSET, 2);
        member(expected, "rdma_ucm_reject", "private_data", UcmReject.PRIVATE_DATA_OFFSET, UcmaConstants.MAX_PRIVATE_DATA);

        size(expected, new EventResponse());
        member(expected, "rdma_ucm_event_resp", "uid", EventResponse.UID_OFFSET, 8);
        member(expected, "rdma_ucm_event_resp", "id", EventResponse.ID_OFFSET, 4);
        member(expected, "rdma_ucm_event_resp", "event", EventResponse.EVENT_OFFSET, 4);
        member(expected, "rdma_ucm_event_resp", "status", EventResponse.STATUS_OFFSET, 4);
        member(expected, "rdma_ucm_event_resp", "param", EventResponse.PARAM_OFFSET, EventResponse.PARAM_LENGTH);
        member(expected, "rdma_ucm_event_resp", "param.conn", EventResponse.PARAM_OFFSET, ConnParam.LENGTH);
        member(expected, "rdma_ucm_event_resp", "param.ud", EventResponse.PARAM_OFFSET, UdParam.LENGTH);
        member(expected, "rdma_ucm_event_resp", "reserved", EventResponse.RESERVED_OFFSET, 4);
        member(expected, "rdma_ucm_event_resp", "ece.vendor_id", EventResponse.ECE_VENDOR_ID_OFFSET, 4);
        member(expected, "rdma_ucm_event_resp", "ece.attr_mod", EventResponse.ECE_ATTR_MOD_OFFSET, 4);

        CHeaders.assertValues(UCMA_H, expected);
    }

    @Test
    void shouldMatchTheHeaderForTheQueryAndQpResponses()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        size(expected, new QueryAddrResponse());
        member(expected, "rdma_ucm_query_addr_resp", "node_guid", QueryAddrResponse.NODE_GUID_OFFSET, 8);
        member(expected, "rdma_ucm_query_addr_resp", "port_num", QueryAddrResponse.PORT_NUM_OFFSET, 1);
        member(expected, "rdma_ucm_query_addr_resp", "reserved", QueryAddrResponse.RESERVED_OFFSET, 1);
        member(expected, "rdma_ucm_query_addr_resp", "pkey", QueryAddrResponse.PKEY_OFFSET, 2);
        member(expected, "rdma_ucm_query_addr_resp", "src_size", QueryAddrResponse.SRC_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_query_addr_resp", "dst_size", QueryAddrResponse.DST_SIZE_OFFSET, 2);
        member(expected, "rdma_ucm_query_addr_resp", "src_addr", QueryAddrResponse.SRC_ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);
        member(expected, "rdma_ucm_query_addr_resp", "dst_addr", QueryAddrResponse.DST_ADDR_OFFSET, UcmaStruct.SOCKADDR_STORAGE_LENGTH);
        member(expected, "rdma_ucm_query_addr_resp", "ibdev_index", QueryAddrResponse.IBDEV_INDEX_OFFSET, 4);
        member(expected, "rdma_ucm_query_addr_resp", "reserved1", QueryAddrResponse.RESERVED1_OFFSET, 4);

        size(expected, new QueryPathResponse());
        member(expected, "rdma_ucm_query_path_resp", "num_paths", QueryPathResponse.NUM_PATHS_OFFSET, 4);
        member(expected, "rdma_ucm_query_path_resp", "reserved", QueryPathResponse.RESERVED_OFFSET, 4);
        expected.put("offsetof(struct rdma_ucm_query_path_resp, path_data)", QueryPathResponse.PATH_DATA_OFFSET);
        expected.put("sizeof(struct ib_path_rec_data)", IbvPathData.LENGTH);
        member(expected, "ib_path_rec_data", "flags", IbvPathData.FLAGS_OFFSET, 4);
        member(expected, "ib_path_rec_data", "path_rec", IbvPathData.PATH_OFFSET, IbvPathData.LENGTH - IbvPathData.PATH_OFFSET);

        size(expected, new UverbsQpAttr());
        member(expected, "ib_uverbs_qp_attr", "qp_attr_mask", UverbsQpAttr.QP_ATTR_MASK_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "qp_state", UverbsQpAttr.QP_STATE_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "cur_qp_state", UverbsQpAttr.CUR_QP_STATE_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "path_mtu", UverbsQpAttr.PATH_MTU_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "path_mig_state", UverbsQpAttr.PATH_MIG_STATE_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "qkey", UverbsQpAttr.QKEY_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "rq_psn", UverbsQpAttr.RQ_PSN_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "sq_psn", UverbsQpAttr.SQ_PSN_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "dest_qp_num", UverbsQpAttr.DEST_QP_NUM_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "qp_access_flags", UverbsQpAttr.QP_ACCESS_FLAGS_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "ah_attr", UverbsQpAttr.AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
        member(expected, "ib_uverbs_qp_attr", "alt_ah_attr", UverbsQpAttr.ALT_AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
        member(expected, "ib_uverbs_qp_attr", "max_send_wr", UverbsQpAttr.MAX_SEND_WR_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "max_recv_wr", UverbsQpAttr.MAX_RECV_WR_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "max_send_sge", UverbsQpAttr.MAX_SEND_SGE_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "max_recv_sge", UverbsQpAttr.MAX_RECV_SGE_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "max_inline_data", UverbsQpAttr.MAX_INLINE_DATA_OFFSET, 4);
        member(expected, "ib_uverbs_qp_attr", "pkey_index", UverbsQpAttr.PKEY_INDEX_OFFSET, 2);
        member(expected, "ib_uverbs_qp_attr", "alt_pkey_index", UverbsQpAttr.ALT_PKEY_INDEX_OFFSET, 2);
        member(expected, "ib_uverbs_qp_attr", "en_sqd_async_notify", UverbsQpAttr.EN_SQD_ASYNC_NOTIFY_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "sq_draining", UverbsQpAttr.SQ_DRAINING_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "max_rd_atomic", UverbsQpAttr.MAX_RD_ATOMIC_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "max_dest_rd_atomic", UverbsQpAttr.MAX_DEST_RD_ATOMIC_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "min_rnr_timer", UverbsQpAttr.MIN_RNR_TIMER_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "port_num", UverbsQpAttr.PORT_NUM_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "timeout", UverbsQpAttr.TIMEOUT_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "retry_cnt", UverbsQpAttr.RETRY_CNT_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "rnr_retry", UverbsQpAttr.RNR_RETRY_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "alt_port_num", UverbsQpAttr.ALT_PORT_NUM_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "alt_timeout", UverbsQpAttr.ALT_TIMEOUT_OFFSET, 1);
        member(expected, "ib_uverbs_qp_attr", "reserved", UverbsQpAttr.RESERVED_OFFSET, UverbsQpAttr.RESERVED_LENGTH);

        CHeaders.assertValues(UCMA_H, expected);
    }

    @Test
    void shouldMatchTheHeaderForEveryCommandNumberAndInputSize()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        for (final UcmaCommand command : UcmaCommand.values())
        {
            expected.put(command.cName(), command.number());
            if (command != UcmaCommand.GET_OPTION)
            {
                expected.put("sizeof(struct " + inputStruct(command) + ")", command.inLength());
            }
        }
        expected.put("sizeof(struct rdma_ucm_query_route_resp)", UcmaCommand.QUERY_ROUTE.responseLength());
        expected.put("offsetof(struct rdma_ucm_join_ip_mcast, response)", UcmaCommand.JOIN_IP_MCAST.responseOffset());
        expected.put("offsetof(struct rdma_ucm_join_mcast, response)", UcmaCommand.JOIN_MCAST.responseOffset());

        CHeaders.assertValues(UCMA_H, expected);
    }

    /** The input struct of each command, by the header's naming (LEAVE_MCAST reuses destroy_id). */
    private static String inputStruct(final UcmaCommand command)
    {
        return switch (command)
        {
            case LEAVE_MCAST -> "rdma_ucm_destroy_id";
            case QUERY_ROUTE -> "rdma_ucm_query";
            case JOIN_IP_MCAST -> "rdma_ucm_join_ip_mcast";
            default -> "rdma_ucm_" + command.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    @Test
    void shouldMatchTheHeaderForEveryConstant()
    {
        CHeaders.assertValues(UCMA_H, Map.ofEntries(
            Map.entry("RDMA_USER_CM_ABI_VERSION", UcmaConstants.ABI_VERSION),
            Map.entry("RDMA_MAX_PRIVATE_DATA", UcmaConstants.MAX_PRIVATE_DATA),
            Map.entry("RDMA_PS_IPOIB", UcmaConstants.RDMA_PS_IPOIB),
            Map.entry("RDMA_PS_IB", UcmaConstants.RDMA_PS_IB),
            Map.entry("RDMA_PS_TCP", UcmaConstants.RDMA_PS_TCP),
            Map.entry("RDMA_PS_UDP", UcmaConstants.RDMA_PS_UDP),
            Map.entry("RDMA_USER_CM_QUERY_ADDR", UcmaConstants.RDMA_USER_CM_QUERY_ADDR),
            Map.entry("RDMA_USER_CM_QUERY_PATH", UcmaConstants.RDMA_USER_CM_QUERY_PATH),
            Map.entry("RDMA_USER_CM_QUERY_GID", UcmaConstants.RDMA_USER_CM_QUERY_GID),
            Map.entry("RDMA_OPTION_ID", UcmaConstants.RDMA_OPTION_ID),
            Map.entry("RDMA_OPTION_IB", UcmaConstants.RDMA_OPTION_IB),
            Map.entry("RDMA_OPTION_ID_TOS", UcmaConstants.RDMA_OPTION_ID_TOS),
            Map.entry("RDMA_OPTION_ID_REUSEADDR", UcmaConstants.RDMA_OPTION_ID_REUSEADDR),
            Map.entry("RDMA_OPTION_ID_AFONLY", UcmaConstants.RDMA_OPTION_ID_AFONLY),
            Map.entry("RDMA_OPTION_ID_ACK_TIMEOUT", UcmaConstants.RDMA_OPTION_ID_ACK_TIMEOUT),
            Map.entry("RDMA_OPTION_IB_PATH", UcmaConstants.RDMA_OPTION_IB_PATH),
            Map.entry("RDMA_MC_JOIN_FLAG_FULLMEMBER", UcmaConstants.RDMA_MC_JOIN_FLAG_FULLMEMBER),
            Map.entry("RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER", UcmaConstants.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER),
            Map.entry("IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL", UcmaConstants.IB_PATH_INSTALLED_FLAGS)));
    }

    @Test
    void shouldNumberTheEventsAndQpTypesAsLibrdmacmAndLibibverbsDo()
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        final Map<String, Number> expected = new LinkedHashMap<>();
        for (final UcmaEventType type : UcmaEventType.values())
        {
            if (type.number() <= UcmaEventType.TIMEWAIT_EXIT.number())
            {
                // the 6.18 events are not in Debian 12's librdmacm 44
                expected.put("RDMA_CM_EVENT_" + type.name(), type.number());
            }
        }
        expected.put("IBV_QPT_RC", UcmaConstants.IB_QPT_RC);
        expected.put("IBV_QPT_UD", UcmaConstants.IB_QPT_UD);
        expected.put("IBV_EVENT_COMM_EST", UcmaConstants.IBV_EVENT_COMM_EST);
        expected.put("IBV_EVENT_PATH_MIG", UcmaConstants.IBV_EVENT_PATH_MIG);
        CHeaders.assertValues("#include <rdma/rdma_cma.h>", expected);
        assertEquals(UcmaEventType.TIMEWAIT_EXIT, UcmaEventType.of(15));
    }
}

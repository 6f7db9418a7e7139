package dev.rdmacm.protocol.cm;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RejectReasonTest
{
    /** OpenSM's ib_cm_types.h names for the same codes; it has no 25 (PORT_REDIRECT) nor 35 (ECE). */
    private static final Map<RejectReason, String> OPENSM_NAMES = new LinkedHashMap<>();

    static
    {
        OPENSM_NAMES.put(RejectReason.NO_QP, "IB_REJ_INSUF_QP");
        OPENSM_NAMES.put(RejectReason.NO_EEC, "IB_REJ_INSUF_EEC");
        OPENSM_NAMES.put(RejectReason.NO_RESOURCES, "IB_REJ_INSUF_RESOURCES");
        OPENSM_NAMES.put(RejectReason.TIMEOUT, "IB_REJ_TIMEOUT");
        OPENSM_NAMES.put(RejectReason.UNSUPPORTED, "IB_REJ_UNSUPPORTED");
        OPENSM_NAMES.put(RejectReason.INVALID_COMM_ID, "IB_REJ_INVALID_COMM_ID");
        OPENSM_NAMES.put(RejectReason.INVALID_COMM_INSTANCE, "IB_REJ_INVALID_COMM_INSTANCE");
        OPENSM_NAMES.put(RejectReason.INVALID_SERVICE_ID, "IB_REJ_INVALID_SID");
        OPENSM_NAMES.put(RejectReason.INVALID_TRANSPORT_TYPE, "IB_REJ_INVALID_XPORT");
        OPENSM_NAMES.put(RejectReason.STALE_CONN, "IB_REJ_STALE_CONN");
        OPENSM_NAMES.put(RejectReason.RDC_NOT_EXIST, "IB_REJ_RDC_NOT_EXIST");
        OPENSM_NAMES.put(RejectReason.INVALID_GID, "IB_REJ_INVALID_GID");
        OPENSM_NAMES.put(RejectReason.INVALID_LID, "IB_REJ_INVALID_LID");
        OPENSM_NAMES.put(RejectReason.INVALID_SL, "IB_REJ_INVALID_SL");
        OPENSM_NAMES.put(RejectReason.INVALID_TRAFFIC_CLASS, "IB_REJ_INVALID_TRAFFIC_CLASS");
        OPENSM_NAMES.put(RejectReason.INVALID_HOP_LIMIT, "IB_REJ_INVALID_HOP_LIMIT");
        OPENSM_NAMES.put(RejectReason.INVALID_PACKET_RATE, "IB_REJ_INVALID_PKT_RATE");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_GID, "IB_REJ_INVALID_ALT_GID");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_LID, "IB_REJ_INVALID_ALT_LID");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_SL, "IB_REJ_INVALID_ALT_SL");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_TRAFFIC_CLASS, "IB_REJ_INVALID_ALT_TRAFFIC_CLASS");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_HOP_LIMIT, "IB_REJ_INVALID_ALT_HOP_LIMIT");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_PACKET_RATE, "IB_REJ_INVALID_ALT_PKT_RATE");
        OPENSM_NAMES.put(RejectReason.PORT_CM_REDIRECT, "IB_REJ_PORT_REDIRECT");
        OPENSM_NAMES.put(RejectReason.INVALID_MTU, "IB_REJ_INVALID_MTU");
        OPENSM_NAMES.put(RejectReason.INSUFFICIENT_RESP_RESOURCES, "IB_REJ_INSUFFICIENT_RESP_RES");
        OPENSM_NAMES.put(RejectReason.CONSUMER_DEFINED, "IB_REJ_USER_DEFINED");
        OPENSM_NAMES.put(RejectReason.INVALID_RNR_RETRY, "IB_REJ_INVALID_RNR_RETRY");
        OPENSM_NAMES.put(RejectReason.DUPLICATE_LOCAL_COMM_ID, "IB_REJ_DUPLICATE_LOCAL_COMM_ID");
        OPENSM_NAMES.put(RejectReason.INVALID_CLASS_VERSION, "IB_REJ_INVALID_CLASS_VER");
        OPENSM_NAMES.put(RejectReason.INVALID_FLOW_LABEL, "IB_REJ_INVALID_FLOW_LBL");
        OPENSM_NAMES.put(RejectReason.INVALID_ALT_FLOW_LABEL, "IB_REJ_INVALID_ALT_FLOW_LBL");
    }

    @Test
    void shouldHaveTheCodesOfOpenSmsIbCmTypes()
    {
        final Map<String, Integer> expected = new LinkedHashMap<>();
        OPENSM_NAMES.forEach((reason, cName) -> expected.put("cl_ntoh16(" + cName + ")", reason.code()));

        KernelCmFields.assertHeaderValues(expected);
    }

    @Test
    void shouldFindEveryReasonByItsCode()
    {
        for (final RejectReason reason : RejectReason.values())
        {
            assertEquals(reason, RejectReason.fromCode(reason.code()));
        }
        assertNull(RejectReason.fromCode(0));
        assertNull(RejectReason.fromCode(34));
        assertNull(RejectReason.fromCode(0xffff));
    }

    @Test
    void shouldKeepTheCodesIbaAssignsBeyondOpenSmsList()
    {
        assertEquals(25, RejectReason.PORT_REDIRECT.code());
        assertEquals(35, RejectReason.VENDOR_OPTION_NOT_SUPPORTED.code());
    }
}

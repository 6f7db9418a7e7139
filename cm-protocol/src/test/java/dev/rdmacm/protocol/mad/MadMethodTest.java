package dev.rdmacm.protocol.mad;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MadMethodTest
{
    @Test
    void shouldMatchUmadMethodCodes()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("UMAD_METHOD_GET", MadMethod.GET),
            entry("UMAD_METHOD_SET", MadMethod.SET),
            entry("UMAD_METHOD_GET_RESP", MadMethod.GET_RESP),
            entry("UMAD_METHOD_SEND", MadMethod.SEND),
            entry("UMAD_METHOD_TRAP", MadMethod.TRAP),
            entry("UMAD_METHOD_REPORT", MadMethod.REPORT),
            entry("UMAD_METHOD_REPORT_RESP", MadMethod.REPORT_RESP),
            entry("UMAD_METHOD_TRAP_REPRESS", MadMethod.TRAP_REPRESS),
            entry("UMAD_METHOD_RESP_MASK", MadMethod.RESPONSE_BIT),
            entry("UMAD_SA_METHOD_GET_TABLE", MadMethod.GET_TABLE),
            entry("UMAD_SA_METHOD_GET_TABLE_RESP", MadMethod.GET_TABLE_RESP),
            entry("UMAD_SA_METHOD_DELETE", MadMethod.DELETE),
            entry("UMAD_SA_METHOD_DELETE_RESP", MadMethod.DELETE_RESP),
            entry("UMAD_SA_METHOD_GET_MULTI", MadMethod.GET_MULTI),
            entry("UMAD_SA_METHOD_GET_MULTI_RESP", MadMethod.GET_MULTI_RESP),
            entry("UMAD_SA_METHOD_GET_TRACE_TABLE", MadMethod.GET_TRACE_TABLE)));
    }

    @Test
    void shouldMatchOpenSmMethodCodes()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_MAD_METHOD_GET", MadMethod.GET),
            entry("IB_MAD_METHOD_SET", MadMethod.SET),
            entry("IB_MAD_METHOD_GET_RESP", MadMethod.GET_RESP),
            entry("IB_MAD_METHOD_DELETE", MadMethod.DELETE),
            entry("IB_MAD_METHOD_GETTABLE", MadMethod.GET_TABLE),
            entry("IB_MAD_METHOD_GETTABLE_RESP", MadMethod.GET_TABLE_RESP),
            entry("IB_MAD_METHOD_GETTRACETABLE", MadMethod.GET_TRACE_TABLE),
            entry("IB_MAD_METHOD_GETMULTI", MadMethod.GET_MULTI),
            entry("IB_MAD_METHOD_GETMULTI_RESP", MadMethod.GET_MULTI_RESP),
            entry("IB_MAD_METHOD_SEND", MadMethod.SEND),
            entry("IB_MAD_METHOD_TRAP", MadMethod.TRAP),
            entry("IB_MAD_METHOD_REPORT", MadMethod.REPORT),
            entry("IB_MAD_METHOD_REPORT_RESP", MadMethod.REPORT_RESP),
            entry("IB_MAD_METHOD_TRAP_REPRESS", MadMethod.TRAP_REPRESS),
            entry("IB_MAD_METHOD_RESP_MASK", MadMethod.RESPONSE_BIT)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldRecogniseResponses()
    {
        assertTrue(MadMethod.isResponse(MadMethod.GET_TABLE_RESP));
        assertFalse(MadMethod.isResponse(MadMethod.GET_TABLE));
    }

    @Test
    void shouldNameMethodsAsTheIbaDoes()
    {
        assertEquals("GetTable", MadMethod.name(0x12));
        assertEquals("GetTableResp", MadMethod.name(0x92));
        assertEquals("0x7f", MadMethod.name(0x7f));
    }
}

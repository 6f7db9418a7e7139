package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.mad.MadStatus;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SaStatusTest
{
    @Test
    void shouldMatchUmadSaStatusCodes()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("UMAD_SA_STATUS_SUCCESS", SaStatus.SUCCESS),
            entry("UMAD_SA_STATUS_NO_RESOURCES", SaStatus.NO_RESOURCES),
            entry("UMAD_SA_STATUS_REQ_INVALID", SaStatus.REQ_INVALID),
            entry("UMAD_SA_STATUS_NO_RECORDS", SaStatus.NO_RECORDS),
            entry("UMAD_SA_STATUS_TOO_MANY_RECORDS", SaStatus.TOO_MANY_RECORDS),
            entry("UMAD_SA_STATUS_INVALID_GID", SaStatus.INVALID_GID),
            entry("UMAD_SA_STATUS_INSUF_COMPS", SaStatus.INSUF_COMPS),
            entry("UMAD_SA_STATUS_REQ_DENIED", SaStatus.REQ_DENIED),
            entry("UMAD_SA_STATUS_PRI_SUGGESTED", SaStatus.PRI_SUGGESTED)));
    }

    @Test
    void shouldMatchOpenSmStatusWords()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("cl_ntoh16(IB_SA_MAD_STATUS_SUCCESS)", SaStatus.toStatusWord(SaStatus.SUCCESS)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_NO_RESOURCES)", SaStatus.toStatusWord(SaStatus.NO_RESOURCES)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_REQ_INVALID)", SaStatus.toStatusWord(SaStatus.REQ_INVALID)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_NO_RECORDS)", SaStatus.toStatusWord(SaStatus.NO_RECORDS)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_TOO_MANY_RECORDS)", SaStatus.toStatusWord(SaStatus.TOO_MANY_RECORDS)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_INVALID_GID)", SaStatus.toStatusWord(SaStatus.INVALID_GID)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_INSUF_COMPS)", SaStatus.toStatusWord(SaStatus.INSUF_COMPS)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_DENIED)", SaStatus.toStatusWord(SaStatus.REQ_DENIED)),
            entry("cl_ntoh16(IB_SA_MAD_STATUS_PRIO_SUGGESTED)", SaStatus.toStatusWord(SaStatus.PRI_SUGGESTED))),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldNameEveryCodeAsTheIbaDoes()
    {
        final StringBuilder names = new StringBuilder();
        for (int code = 0; code <= 9; code++)
        {
            names.append(SaStatus.name(code)).append(' ');
        }

        assertEquals("SUCCESS ERR_NO_RESOURCES ERR_REQ_INVALID ERR_NO_RECORDS ERR_TOO_MANY_RECORDS " +
            "ERR_REQ_INVALID_GID ERR_REQ_INSUFFICIENT_COMPONENTS ERR_REQ_DENIED ERR_REQ_PRIORITY_SUGGESTED SA_STATUS_9 ",
            names.toString());
    }

    @Test
    void shouldDescribeAWholeStatusWordWithCommonBits()
    {
        assertEquals("SUCCESS", SaStatus.describe(0));
        assertEquals("ERR_NO_RECORDS", SaStatus.describe(0x0300));
        assertEquals("INVALID_VALUE|ERR_REQ_INVALID",
            SaStatus.describe(MadStatus.of(MadStatus.FIELD_INVALID_VALUE, SaStatus.REQ_INVALID)));
        assertEquals(SaStatus.NO_RECORDS, SaStatus.fromStatusWord(0x0300));
    }
}

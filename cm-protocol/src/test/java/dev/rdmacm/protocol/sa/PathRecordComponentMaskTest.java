package dev.rdmacm.protocol.sa;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PathRecordComponentMaskTest
{
    @Test
    void shouldMatchEveryOpenSmPathRecordMaskBit()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("cl_ntoh64(IB_PR_COMPMASK_SERVICEID_MSB)", PathRecordComponentMask.SERVICE_ID_MSB),
            entry("cl_ntoh64(IB_PR_COMPMASK_SERVICEID_LSB)", PathRecordComponentMask.SERVICE_ID_LSB),
            entry("cl_ntoh64(IB_PR_COMPMASK_SERVICEID)", PathRecordComponentMask.SERVICE_ID),
            entry("cl_ntoh64(IB_PR_COMPMASK_DGID)", PathRecordComponentMask.DGID),
            entry("cl_ntoh64(IB_PR_COMPMASK_SGID)", PathRecordComponentMask.SGID),
            entry("cl_ntoh64(IB_PR_COMPMASK_DLID)", PathRecordComponentMask.DLID),
            entry("cl_ntoh64(IB_PR_COMPMASK_SLID)", PathRecordComponentMask.SLID),
            entry("cl_ntoh64(IB_PR_COMPMASK_RAWTRAFFIC)", PathRecordComponentMask.RAW_TRAFFIC),
            entry("cl_ntoh64(IB_PR_COMPMASK_RESV0)", PathRecordComponentMask.RESERVED_7),
            entry("cl_ntoh64(IB_PR_COMPMASK_FLOWLABEL)", PathRecordComponentMask.FLOW_LABEL),
            entry("cl_ntoh64(IB_PR_COMPMASK_HOPLIMIT)", PathRecordComponentMask.HOP_LIMIT),
            entry("cl_ntoh64(IB_PR_COMPMASK_TCLASS)", PathRecordComponentMask.TCLASS),
            entry("cl_ntoh64(IB_PR_COMPMASK_REVERSIBLE)", PathRecordComponentMask.REVERSIBLE),
            entry("cl_ntoh64(IB_PR_COMPMASK_NUMBPATH)", PathRecordComponentMask.NUMB_PATH),
            entry("cl_ntoh64(IB_PR_COMPMASK_PKEY)", PathRecordComponentMask.P_KEY),
            entry("cl_ntoh64(IB_PR_COMPMASK_QOS_CLASS)", PathRecordComponentMask.QOS_CLASS),
            entry("cl_ntoh64(IB_PR_COMPMASK_SL)", PathRecordComponentMask.SL),
            entry("cl_ntoh64(IB_PR_COMPMASK_MTUSELEC)", PathRecordComponentMask.MTU_SELECTOR),
            entry("cl_ntoh64(IB_PR_COMPMASK_MTU)", PathRecordComponentMask.MTU),
            entry("cl_ntoh64(IB_PR_COMPMASK_RATESELEC)", PathRecordComponentMask.RATE_SELECTOR),
            entry("cl_ntoh64(IB_PR_COMPMASK_RATE)", PathRecordComponentMask.RATE),
            entry("cl_ntoh64(IB_PR_COMPMASK_PKTLIFETIMESELEC)", PathRecordComponentMask.PACKET_LIFE_TIME_SELECTOR),
            entry("cl_ntoh64(IB_PR_COMPMASK_PKTLIFETIME)", PathRecordComponentMask.PACKET_LIFE_TIME)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldNameTheSetBits()
    {
        assertEquals("DGID|SGID|NumbPath|Preference", PathRecordComponentMask.names(PathRecordComponentMask.DGID |
            PathRecordComponentMask.SGID | PathRecordComponentMask.NUMB_PATH | PathRecordComponentMask.PREFERENCE));
        assertEquals("ServiceID_MSB|ServiceID_LSB|bit63",
            PathRecordComponentMask.names(PathRecordComponentMask.SERVICE_ID | Long.MIN_VALUE));
        assertEquals("0", PathRecordComponentMask.names(0));
    }
}

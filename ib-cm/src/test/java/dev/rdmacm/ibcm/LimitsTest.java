package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.DisconnectReply;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.MessageReceiptAck;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ib_cm.h's private-data sizes are the room each message leaves after its fields: checked against the
 * codecs' layouts, which cm-protocol checks against tshark's dissector.
 */
@Timeout(10)
class LimitsTest
{
    @Test
    void shouldAllowAsMuchPrivateDataAsEachMessageHolds()
    {
        assertEquals(ConnectRequest.PRIVATE_DATA_LENGTH, Limits.REQ_PRIVATE_DATA_SIZE);
        assertEquals(MessageReceiptAck.PRIVATE_DATA_LENGTH, Limits.MRA_PRIVATE_DATA_SIZE);
        assertEquals(ConnectReject.PRIVATE_DATA_LENGTH, Limits.REJ_PRIVATE_DATA_SIZE);
        assertEquals(ConnectReply.PRIVATE_DATA_LENGTH, Limits.REP_PRIVATE_DATA_SIZE);
        assertEquals(ReadyToUse.PRIVATE_DATA_LENGTH, Limits.RTU_PRIVATE_DATA_SIZE);
        assertEquals(DisconnectRequest.PRIVATE_DATA_LENGTH, Limits.DREQ_PRIVATE_DATA_SIZE);
        assertEquals(DisconnectReply.PRIVATE_DATA_LENGTH, Limits.DREP_PRIVATE_DATA_SIZE);
        assertEquals(SidrRequest.PRIVATE_DATA_LENGTH, Limits.SIDR_REQ_PRIVATE_DATA_SIZE);
        assertEquals(SidrReply.PRIVATE_DATA_LENGTH, Limits.SIDR_REP_PRIVATE_DATA_SIZE);
        assertEquals(ConnectReject.ARI_CAPACITY, Limits.REJ_ARI_LENGTH);
        assertEquals(SidrReply.ADDITIONAL_INFO_CAPACITY, Limits.SIDR_REP_INFO_LENGTH);
    }
}

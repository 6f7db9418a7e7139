package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.rdmacm.protocol.cm.SidrRequest.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SidrRequestTest extends CmMessageContract<SidrRequest>
{
    private static final CmMessageSpec<SidrRequest> SPEC = new CmMessageSpec<>(SidrRequest::new,
        "IB_SIDR_REQ_PDATA_SIZE_VER2",
        List.of(
            CmField.bytes("CM_SIDR_REQ_REQUESTID", REQUEST_ID_OFFSET, 32, SidrRequest::requestId, SidrRequest::requestId),
            CmField.bytes("CM_SIDR_REQ_PARTITION_KEY", PARTITION_KEY_OFFSET, 16, SidrRequest::partitionKey,
                (m, v) -> m.partitionKey((int)v)),
            CmField.bytes("CM_SIDR_REQ_SERVICEID", SERVICE_ID_OFFSET, 64, SidrRequest::serviceId,
                SidrRequest::serviceId)),
        List.of(CmBlock.privateData("CM_SIDR_REQ_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    @Override
    CmMessageSpec<SidrRequest> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithCmNames()
    {
        final SidrRequest request = new SidrRequest()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .requestId(9).partitionKey(0xffff).serviceId(0x0000_0000_0111_04d2L);

        assertEquals("SIDR_REQ{requestid=0x9, pkey=0xffff, serviceid=0x00000000011104d2, private=}",
            request.toString());
    }
}

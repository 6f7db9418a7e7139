package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DisconnectRequestTest extends CmMessageContract<DisconnectRequest>
{
    private static final CmMessageSpec<DisconnectRequest> SPEC = new CmMessageSpec<>(DisconnectRequest::new,
        "IB_DREQ_PDATA_SIZE_VER2", fields(),
        List.of(CmBlock.privateData("CM_DREQ_PRIVATE_DATA", DisconnectRequest.PRIVATE_DATA_OFFSET,
            DisconnectRequest.PRIVATE_DATA_LENGTH)));

    private static List<CmField<DisconnectRequest>> fields()
    {
        final List<CmField<DisconnectRequest>> fields = new ArrayList<>(CmField.commIds("CM_DREQ"));
        fields.add(CmField.bytes("CM_DREQ_REMOTE_QPN_EECN", DisconnectRequest.REMOTE_QPN_EECN_OFFSET, 24,
            DisconnectRequest::remoteQpnEecn, (m, v) -> m.remoteQpnEecn((int)v)));
        return fields;
    }

    @Override
    CmMessageSpec<DisconnectRequest> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithTsharkNames()
    {
        final DisconnectRequest dreq = new DisconnectRequest()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(0x11).remoteCommId(0x22).remoteQpnEecn(0xffffff);

        assertEquals("DREQ{localcommid=0x11, remotecommid=0x22, remoteqpneecn=0xffffff, private=}", dreq.toString());
    }
}

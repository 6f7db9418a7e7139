package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.ConnectReject.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConnectRejectTest extends CmMessageContract<ConnectReject>
{
    private static final CmMessageSpec<ConnectReject> SPEC = new CmMessageSpec<>(ConnectReject::new,
        "IB_REJ_PDATA_SIZE_VER2", fields(),
        List.of(
            CmBlock.info("CM_REJ_ARI", ARI_OFFSET, ARI_CAPACITY, ConnectReject::ari, ConnectReject::getAri),
            CmBlock.privateData("CM_REJ_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    private static List<CmField<ConnectReject>> fields()
    {
        final List<CmField<ConnectReject>> fields = new ArrayList<>(CmField.commIds("CM_REJ"));
        fields.add(CmField.bitField("CM_REJ_MESSAGE_REJECTED", MESSAGE_REJECTED_OFFSET, MESSAGE_REJECTED_MASK,
            MESSAGE_REJECTED_SHIFT, ConnectReject::messageRejected, (m, v) -> m.messageRejected((int)v)));
        fields.add(CmField.<ConnectReject>bitField("CM_REJ_REJECTED_INFO_LENGTH", REJECTED_INFO_LENGTH_OFFSET,
            REJECTED_INFO_LENGTH_MASK, REJECTED_INFO_LENGTH_SHIFT, ConnectReject::rejectedInfoLength,
            (m, v) -> m.rejectedInfoLength((int)v)).withMax(ARI_CAPACITY));
        fields.add(CmField.bytes("CM_REJ_REASON", REASON_OFFSET, 16, ConnectReject::reason,
            (m, v) -> m.reason((int)v)));
        return fields;
    }

    @Override
    CmMessageSpec<ConnectReject> spec()
    {
        return SPEC;
    }

    @Test
    void shouldRejectRejectedInfoLengthOver72WhenDecoding()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        buffer.putByte(REJECTED_INFO_LENGTH_OFFSET, (byte)(73 << REJECTED_INFO_LENGTH_SHIFT));

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new ConnectReject().wrap(buffer, 0, CmMessage.LENGTH));
        assertEquals("REJ rejinfolen: 73 is more than the 72 bytes the field holds", ex.getMessage());
    }

    @Test
    void shouldSetRejectedInfoLengthWithTheAri()
    {
        final ConnectReject reject = new ConnectReject().wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0)
            .ari(new UnsafeBuffer(new byte[] {1, 2, 3}), 0, 3);

        assertEquals(3, reject.rejectedInfoLength());
    }

    @Test
    void shouldPrintFieldsWithTsharkNamesAndTheKernelsReasonText()
    {
        final ConnectReject reject = new ConnectReject()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(5).remoteCommId(6).messageRejected(MESSAGE_REJECTED_REQ)
            .reason(RejectReason.INVALID_SERVICE_ID).ari(new UnsafeBuffer(new byte[] {0x0a, 0}), 0, 2);

        assertEquals("REJ{localcommid=0x5, remotecommid=0x6, msgrej=0, rejinfolen=2, " +
            "reason=8 (invalid service ID), ari=0a00, private=}", reject.toString());
    }

    @Test
    void shouldDescribeUnassignedReasonAsTheKernelDoes()
    {
        assertEquals("unrecognized reason", RejectReason.describe(34));
    }
}

package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.MessageReceiptAck.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MessageReceiptAckTest extends CmMessageContract<MessageReceiptAck>
{
    private static final CmMessageSpec<MessageReceiptAck> SPEC = new CmMessageSpec<>(MessageReceiptAck::new,
        "IB_MRA_PDATA_SIZE_VER2", fields(),
        List.of(CmBlock.privateData("CM_MRA_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    private static List<CmField<MessageReceiptAck>> fields()
    {
        final List<CmField<MessageReceiptAck>> fields = new ArrayList<>(CmField.commIds("CM_MRA"));
        fields.add(CmField.bitField("CM_MRA_MESSAGE_MRAED", MESSAGE_MRAED_OFFSET, MESSAGE_MRAED_MASK,
            MESSAGE_MRAED_SHIFT, MessageReceiptAck::messageMraed, (m, v) -> m.messageMraed((int)v)));
        fields.add(CmField.bitField("CM_MRA_SERVICE_TIMEOUT", SERVICE_TIMEOUT_OFFSET, SERVICE_TIMEOUT_MASK,
            SERVICE_TIMEOUT_SHIFT, MessageReceiptAck::serviceTimeout, (m, v) -> m.serviceTimeout((int)v)));
        return fields;
    }

    @Override
    CmMessageSpec<MessageReceiptAck> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithCmNames()
    {
        final MessageReceiptAck mra = new MessageReceiptAck()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(3).remoteCommId(4).messageMraed(MESSAGE_MRAED_LAP).serviceTimeout(17);

        assertEquals("MRA{localcommid=0x3, remotecommid=0x4, msgmraed=2, svctimeout=17, private=}", mra.toString());
    }
}

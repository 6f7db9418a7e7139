package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DisconnectReplyTest extends CmMessageContract<DisconnectReply>
{
    private static final CmMessageSpec<DisconnectReply> SPEC = new CmMessageSpec<>(DisconnectReply::new,
        "IB_DREP_PDATA_SIZE_VER2", CmField.commIds("CM_DREP"),
        List.of(CmBlock.privateData("CM_DREP_PRIVATE_DATA", DisconnectReply.PRIVATE_DATA_OFFSET,
            DisconnectReply.PRIVATE_DATA_LENGTH)));

    @Override
    CmMessageSpec<DisconnectReply> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithTsharkNames()
    {
        final DisconnectReply drep = new DisconnectReply()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(1).remoteCommId(2)
            .privateData(new UnsafeBuffer(new byte[] {(byte)0xab, 0, (byte)0xcd}), 0, 3);

        assertEquals("DREP{localcommid=0x1, remotecommid=0x2, private=ab00cd}", drep.toString());
    }
}

package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReadyToUseTest extends CmMessageContract<ReadyToUse>
{
    private static final CmMessageSpec<ReadyToUse> SPEC = new CmMessageSpec<>(ReadyToUse::new,
        "IB_RTU_PDATA_SIZE_VER2", CmField.commIds("CM_RTU"),
        List.of(CmBlock.privateData("CM_RTU_PRIVATE_DATA", ReadyToUse.PRIVATE_DATA_OFFSET,
            ReadyToUse.PRIVATE_DATA_LENGTH)));

    @Override
    CmMessageSpec<ReadyToUse> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithTsharkNames()
    {
        final ReadyToUse rtu = new ReadyToUse()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(0xdead_beefL).remoteCommId(0x12);

        assertEquals("RTU{localcommid=0xdeadbeef, remotecommid=0x12, private=}", rtu.toString());
    }

    @Test
    void shouldSayUnwrappedBeforeWrap()
    {
        assertEquals("RTU{unwrapped}", new ReadyToUse().toString());
    }
}

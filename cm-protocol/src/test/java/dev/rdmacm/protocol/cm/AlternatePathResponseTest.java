package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.protocol.cm.AlternatePathResponse.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AlternatePathResponseTest extends CmMessageContract<AlternatePathResponse>
{
    private static final CmMessageSpec<AlternatePathResponse> SPEC = new CmMessageSpec<>(AlternatePathResponse::new,
        "IB_APR_PDATA_SIZE_VER2", fields(),
        List.of(
            CmBlock.info("CM_APR_ADDITIONAL_INFORMATION", ADDITIONAL_INFO_OFFSET, ADDITIONAL_INFO_CAPACITY,
                AlternatePathResponse::additionalInfo, AlternatePathResponse::getAdditionalInfo),
            CmBlock.privateData("CM_APR_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    private static List<CmField<AlternatePathResponse>> fields()
    {
        final List<CmField<AlternatePathResponse>> fields = new ArrayList<>(CmField.commIds("CM_APR"));
        fields.add(CmField.<AlternatePathResponse>bytes("CM_APR_ADDITIONAL_INFORMATION_LENGTH",
            ADDITIONAL_INFO_LENGTH_OFFSET, 8, AlternatePathResponse::additionalInfoLength,
            (m, v) -> m.additionalInfoLength((int)v)).withMax(ADDITIONAL_INFO_CAPACITY));
        fields.add(CmField.bytes("CM_APR_AR_STATUS", AP_STATUS_OFFSET, 8, AlternatePathResponse::apStatus,
            (m, v) -> m.apStatus((int)v)));
        return fields;
    }

    @Override
    CmMessageSpec<AlternatePathResponse> spec()
    {
        return SPEC;
    }

    @Test
    void shouldHaveTheStatusCodesOfOpenSmsIbCmTypes()
    {
        final String[] openSmNames = {"IB_AP_SUCCESS", "IB_AP_INVALID_COMM_ID", "IB_AP_UNSUPPORTED", "IB_AP_REJECT",
            "IB_AP_REDIRECT", "IB_AP_IS_CURRENT", "IB_AP_INVALID_QPN_EECN", "IB_AP_INVALID_LID", "IB_AP_INVALID_GID",
            "IB_AP_INVALID_FLOW_LBL", "IB_AP_INVALID_TCLASS", "IB_AP_INVALID_HOP_LIMIT", "IB_AP_INVALID_PKT_RATE",
            "IB_AP_INVALID_SL"};
        assertEquals(openSmNames.length, AlternatePathStatus.values().length);
        final Map<String, Integer> expected = new LinkedHashMap<>();
        for (final AlternatePathStatus status : AlternatePathStatus.values())
        {
            expected.put(openSmNames[status.ordinal()], status.code());
        }

        KernelCmFields.assertHeaderValues(expected);
    }

    @Test
    void shouldFindEveryStatusByItsCode()
    {
        for (final AlternatePathStatus status : AlternatePathStatus.values())
        {
            assertEquals(status, AlternatePathStatus.fromCode(status.code()));
        }
        assertNull(AlternatePathStatus.fromCode(14));
    }

    @Test
    void shouldRejectAdditionalInfoLengthOver72WhenDecoding()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        buffer.putByte(ADDITIONAL_INFO_LENGTH_OFFSET, (byte)73);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new AlternatePathResponse().wrap(buffer, 0, CmMessage.LENGTH));
        assertEquals("APR addinfolen: 73 is more than the 72 bytes the field holds", ex.getMessage());
    }

    @Test
    void shouldPrintFieldsWithStatusName()
    {
        final AlternatePathResponse apr = new AlternatePathResponse()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(1).remoteCommId(2).apStatus(AlternatePathStatus.INVALID_LID);

        assertEquals("APR{localcommid=0x1, remotecommid=0x2, addinfolen=0, apstatus=7 (INVALID_LID), addinfo=, " +
            "private=}", apr.toString());
    }
}

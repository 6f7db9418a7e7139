package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.protocol.cm.SidrReply.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SidrReplyTest extends CmMessageContract<SidrReply>
{
    private static final CmMessageSpec<SidrReply> SPEC = new CmMessageSpec<>(SidrReply::new,
        "IB_SIDR_REP_PDATA_SIZE_VER2",
        List.of(
            CmField.bytes("CM_SIDR_REP_REQUESTID", REQUEST_ID_OFFSET, 32, SidrReply::requestId, SidrReply::requestId),
            CmField.bytes("CM_SIDR_REP_STATUS", STATUS_OFFSET, 8, SidrReply::status, (m, v) -> m.status((int)v)),
            CmField.<SidrReply>bytes("CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH", ADDITIONAL_INFO_LENGTH_OFFSET, 8,
                SidrReply::additionalInfoLength, (m, v) -> m.additionalInfoLength((int)v))
                .withMax(ADDITIONAL_INFO_CAPACITY),
            CmField.part("CM_SIDR_REP_VENDOR_ID_H", VENDOR_ID_HIGH_OFFSET, 16, m -> m.vendorId() >>> 8,
                (m, v) -> m.vendorId((m.vendorId() & 0xff) | (int)v << 8)),
            CmField.bytes("CM_SIDR_REP_QPN", QPN_OFFSET, 24, SidrReply::qpn, (m, v) -> m.qpn((int)v)),
            CmField.part("CM_SIDR_REP_VENDOR_ID_L", VENDOR_ID_LOW_OFFSET, 8, m -> m.vendorId() & 0xff,
                (m, v) -> m.vendorId((m.vendorId() & 0xffff00) | (int)v)),
            CmField.bytes("CM_SIDR_REP_SERVICEID", SERVICE_ID_OFFSET, 64, SidrReply::serviceId, SidrReply::serviceId),
            CmField.bytes("CM_SIDR_REP_Q_KEY", Q_KEY_OFFSET, 32, SidrReply::qKey, SidrReply::qKey)),
        List.of(
            CmBlock.info("CM_SIDR_REP_ADDITIONAL_INFORMATION", ADDITIONAL_INFO_OFFSET, ADDITIONAL_INFO_CAPACITY,
                SidrReply::additionalInfo, SidrReply::getAdditionalInfo),
            CmBlock.privateData("CM_SIDR_REP_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    @Override
    CmMessageSpec<SidrReply> spec()
    {
        return SPEC;
    }

    @Test
    void shouldHaveTheStatusCodesOfOpenSmsIbCmTypes()
    {
        final String[] openSmNames = {"IB_SIDR_SUCCESS", "IB_SIDR_UNSUPPORTED", "IB_SIDR_REJECT", "IB_SIDR_NO_QP",
            "IB_SIDR_REDIRECT", "IB_SIDR_UNSUPPORTED_VER"};
        assertEquals(openSmNames.length, SidrStatus.values().length);
        final Map<String, Integer> expected = new LinkedHashMap<>();
        for (final SidrStatus status : SidrStatus.values())
        {
            expected.put(openSmNames[status.ordinal()], status.code());
        }

        KernelCmFields.assertHeaderValues(expected);
    }

    @Test
    void shouldFindEveryStatusByItsCode()
    {
        for (final SidrStatus status : SidrStatus.values())
        {
            assertEquals(status, SidrStatus.fromCode(status.code()));
        }
        assertNull(SidrStatus.fromCode(6));
    }

    @Test
    void shouldRejectAdditionalInfoLengthOver72WhenDecoding()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        buffer.putByte(ADDITIONAL_INFO_LENGTH_OFFSET, (byte)0xff);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new SidrReply().wrap(buffer, 0, CmMessage.LENGTH));
        assertEquals("SIDR_REP addinfolen: 255 is more than the 72 bytes the field holds", ex.getMessage());
    }

    @Test
    void shouldPrintFieldsWithStatusName()
    {
        final SidrReply reply = new SidrReply()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .requestId(9).status(SidrStatus.SUCCESS).qpn(0x4a).serviceId(0x0000_0000_0111_04d2L).qKey(0x0123_4567L);

        assertEquals("SIDR_REP{requestid=0x9, status=0 (SUCCESS), addinfolen=0, vendorid=0x0, qpn=0x4a, " +
            "serviceid=0x00000000011104d2, qkey=0x1234567, addinfo=, private=}", reply.toString());
    }
}

package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MadHeaderTest
{
    @Test
    void shouldMatchUmadTypesHeaderOffsets()
    {
        Peers.requireFile("/usr/include/infiniband/umad_types.h", "libibumad-dev");
        final String output = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <stddef.h>
            #include <infiniband/umad_types.h>
            int main(void) {
              printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu\\n", sizeof(struct umad_hdr),
                offsetof(struct umad_hdr, base_version), offsetof(struct umad_hdr, mgmt_class),
                offsetof(struct umad_hdr, class_version), offsetof(struct umad_hdr, method),
                offsetof(struct umad_hdr, status), offsetof(struct umad_hdr, class_specific),
                offsetof(struct umad_hdr, tid), offsetof(struct umad_hdr, attr_id),
                offsetof(struct umad_hdr, resv), offsetof(struct umad_hdr, attr_mod));
              return 0;
            }
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d %d %d%n", MadHeader.LENGTH,
            MadHeader.BASE_VERSION_OFFSET, MadHeader.MGMT_CLASS_OFFSET, MadHeader.CLASS_VERSION_OFFSET,
            MadHeader.METHOD_OFFSET, MadHeader.STATUS_OFFSET, MadHeader.CLASS_SPECIFIC_OFFSET,
            MadHeader.TRANSACTION_ID_OFFSET, MadHeader.ATTRIBUTE_ID_OFFSET, MadHeader.RESERVED_OFFSET,
            MadHeader.ATTRIBUTE_MODIFIER_OFFSET), output);
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final MadHeader header = new MadHeader().wrap(buffer, 0)
            .baseVersion(0xff).mgmtClass(0xff).classVersion(0xff).method(0xff).status(0xffff)
            .classSpecific(0xffff).transactionId(-1L).attributeId(0xffff).attributeModifier(0xffff_ffffL);

        assertEquals(0xff, header.baseVersion());
        assertEquals(0xff, header.mgmtClass());
        assertEquals(0xff, header.classVersion());
        assertEquals(0xff, header.method());
        assertTrue(header.isResponse());
        assertEquals(0x7f, header.methodWithoutResponseBit());
        assertEquals(0xffff, header.status());
        assertEquals(0xffff, header.classSpecific());
        assertEquals(-1L, header.transactionId());
        assertEquals(0xffff, header.attributeId());
        assertEquals(0xffff_ffffL, header.attributeModifier());
    }

    @Test
    void shouldWriteBigEndianBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.LENGTH]);
        new MadHeader().wrap(buffer, 0).baseVersion(1).mgmtClass(3).classVersion(2).method(0x12)
            .status(0x0300).transactionId(0x0102030405060708L).attributeId(0x0035).attributeModifier(7);

        assertEquals("01030212030000000102030405060708003500000000000" + "7",
            org.agrona.BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldRejectShortHeader()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new MadHeader().wrap(new UnsafeBuffer(new byte[23]), 0, 23));
        assertEquals("MAD header: 23 bytes present, the format needs at least 24", ex.getMessage());
    }
}

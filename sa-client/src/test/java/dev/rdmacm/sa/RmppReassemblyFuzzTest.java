package dev.rdmacm.sa;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.ManagementClass;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.RmppHeader;
import dev.rdmacm.protocol.mad.RmppType;
import dev.rdmacm.protocol.sa.SaMad;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of RMPP reassembly: segments of a GetTableResp into a real
 * SA engine with the table query in flight ({@link SaEngineUnderFuzz}). The harness writes the header the
 * engine matches on (class, method, attribute, TransactionID, RMPP version and active flag), so every input
 * reaches the reassembly; the fuzzer chooses the rest. The input is a sequence of segments,
 * {@code [RMPP type][flags][segment: 4][payload length: 4][status: 2][AttributeOffset: 2][data length]
 * [data]}. The contract: nothing escapes, and after the deadlines the query has ended, with the records or
 * an {@link SaQueryException}. Seeds: the segments {@code ScriptedSa} sends for a table of 12 records.
 */
class RmppReassemblyFuzzTest
{
    private static final int CONTROL = 15;

    @FuzzTest
    void shouldReassembleOrEndTheQuery(final byte[] input)
    {
        final SaEngineUnderFuzz sa = new SaEngineUnderFuzz();
        final long tid = sa.tid(sa.transport.requests() - 1);
        final UnsafeBuffer control = new UnsafeBuffer(input);
        int at = 0;
        while (input.length - at >= CONTROL)
        {
            final int dataLength = Math.min(input[at + 14] & 0xff, input.length - at - CONTROL);
            final UnsafeBuffer mad = new UnsafeBuffer(new byte[SaMad.DATA_OFFSET + dataLength]);
            new MadHeader().wrap(mad, 0).baseVersion(MadHeader.BASE_VERSION).mgmtClass(ManagementClass.SUBN_ADM).classVersion(SaMad.CLASS_VERSION)
                .method(MadMethod.GET_TABLE_RESP).status(control.getShort(at + 10, BIG_ENDIAN) & 0xffff)
                .attributeId(SaEngineUnderFuzz.ATTRIBUTE);
            SaEngineUnderFuzz.putTid(mad.byteArray(), tid);
            final int type = input[at] & 0xff;
            mad.putByte(RmppHeader.VERSION_OFFSET, (byte)RmppHeader.VERSION);
            mad.putByte(RmppHeader.TYPE_OFFSET, (byte)(type < 0x80 ? RmppType.DATA : type & 0x7f));
            mad.putByte(RmppHeader.RESP_TIME_FLAGS_OFFSET, (byte)(input[at + 1] | RmppHeader.FLAG_ACTIVE));
            mad.putInt(RmppHeader.SEGMENT_NUMBER_OFFSET, control.getInt(at + 2, BIG_ENDIAN), BIG_ENDIAN);
            mad.putInt(RmppHeader.PAYLOAD_LENGTH_OFFSET, control.getInt(at + 6, BIG_ENDIAN), BIG_ENDIAN);
            mad.putShort(SaMad.ATTRIBUTE_OFFSET_OFFSET, control.getShort(at + 12, BIG_ENDIAN), BIG_ENDIAN);
            mad.putBytes(SaMad.DATA_OFFSET, input, at + CONTROL, dataLength);
            at += CONTROL + dataLength;
            sa.receive(true, mad.byteArray());
        }
        sa.finish();
    }
}

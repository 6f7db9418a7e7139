package dev.rdmacm.sa;

import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.sa.SaMad;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the attribute data of a successful answer into records, AttributeOffset x 8 bytes apart, and
 * holds each to the request's expectations: the record length it asked for and its
 * {@link RecordCheck}. A GetResp carries exactly one record (AttributeOffset 0 means "the whole data");
 * a GetTableResp with AttributeOffset 0 carries none.
 */
final class ResponseRecords
{
    private ResponseRecords()
    {
    }

    /**
     * @return the response, or null when the data breaks a rule; {@code counters} then says which
     * ({@link SaCounter#DROPPED_MALFORMED} or {@link SaCounter#DROPPED_MISMATCHED_RECORDS}).
     */
    static SaResponse split(final SaRequest request, final DirectBuffer data, final int dataOffset, final int dataLength,
        final int attributeOffsetWords, final boolean mayBeTruncated, final SaCounters counters)
    {
        final int expected = request.recordLength();
        final boolean single = request.responseMethod() == MadMethod.GET_RESP;
        int recordLength = attributeOffsetWords * SaMad.ATTRIBUTE_OFFSET_UNIT;
        if (single && recordLength == 0)
        {
            recordLength = expected != 0 ? expected : dataLength;
        }
        if (recordLength == 0 && !single)
        {
            return new SaResponse(request.responseMethod(), request.responseAttributeId(), expected, List.of(), false);
        }
        if ((expected != 0 && recordLength != expected) || (recordLength > dataLength && !single) || recordLength <= 0)
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return null;
        }
        final int count = single ? 1 : dataLength / recordLength;
        final List<byte[]> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final int at = dataOffset + i * recordLength;
            final int available = Math.min(recordLength, dataOffset + dataLength - at);
            if (!request.recordCheck().accepts(data, at, available))
            {
                counters.increment(SaCounter.DROPPED_MISMATCHED_RECORDS);
                return null;
            }
            final byte[] record = new byte[recordLength];
            data.getBytes(at, record, 0, available);
            records.add(record);
        }
        final boolean truncated = mayBeTruncated && !single;
        if (truncated)
        {
            counters.increment(SaCounter.TRUNCATED_TABLES);
        }
        return new SaResponse(request.responseMethod(), request.responseAttributeId(), recordLength, List.copyOf(records), truncated);
    }
}

package dev.rdmacm.sa;

import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;


/**
 * One SA query as the engine sends it: method, attribute, component mask and the attribute's bytes
 * (at most {@link #MAX_PAYLOAD} so that umad2sim delivers it whole), plus what the answer must look
 * like: the response method and attribute, the record length and a {@link RecordCheck}.
 * <p>
 * {@code cacheKey}, when not null, is the identity of the query for the path cache and for coalescing
 * identical queries in flight; only side-effect-free queries have one.
 */
public final class SaRequest
{
    /** umad2sim hands OpenSM only 224 bytes of a request: 224 - 56 bytes of SA data. */
    public static final int MAX_PAYLOAD = 168;
    /** An SA MAD carries at most this many bytes of attribute data. */
    public static final int SA_DATA_LENGTH = SaMad.DATA_LENGTH;

    private final String description;
    private final int method;
    private final int attributeId;
    private final long componentMask;
    private final byte[] payload;
    private final int responseMethod;
    private final int responseAttributeId;
    private final int recordLength;
    private final RecordCheck recordCheck;
    private final Object cacheKey;
    private final boolean rmppSend;

    private SaRequest(
        final String description, final int method, final int attributeId, final long componentMask, final byte[] payload,
        final int responseMethod, final int responseAttributeId, final int recordLength, final RecordCheck recordCheck,
        final Object cacheKey, final boolean rmppSend)
    {
        if (payload.length > SA_DATA_LENGTH)
        {
            throw new IllegalArgumentException(description + ": " + payload.length + " bytes of attribute data, an SA MAD holds " +
                SA_DATA_LENGTH);
        }
        if (recordLength % 8 != 0)
        {
            throw new IllegalArgumentException(description + ": record length " + recordLength + " is not a multiple of 8");
        }
        this.description = description;
        this.method = method;
        this.attributeId = attributeId;
        this.componentMask = componentMask;
        this.payload = payload.clone();
        this.responseMethod = responseMethod;
        this.responseAttributeId = responseAttributeId;
        this.recordLength = recordLength;
        this.recordCheck = recordCheck;
        this.cacheKey = cacheKey;
        this.rmppSend = rmppSend;
    }

    /** SubnAdmGet: exactly one record, answered by GetResp. */
    public static SaRequest get(final String description, final int attributeId, final long componentMask,
        final byte[] payload, final int recordLength, final RecordCheck check, final Object cacheKey)
    {
        return new SaRequest(description, MadMethod.GET, attributeId, componentMask, payload,
            MadMethod.GET_RESP, attributeId, recordLength, check, cacheKey, false);
    }

    /** SubnAdmGetTable: every matching record, answered by GetTableResp (RMPP on a real fabric). */
    public static SaRequest getTable(final String description, final int attributeId, final long componentMask,
        final byte[] payload, final int recordLength, final RecordCheck check, final Object cacheKey)
    {
        return new SaRequest(description, MadMethod.GET_TABLE, attributeId, componentMask, payload,
            MadMethod.GET_TABLE_RESP, attributeId, recordLength, check, cacheKey, false);
    }

    /** SubnAdmSet, answered by GetResp with the record as stored. */
    public static SaRequest set(final String description, final int attributeId, final long componentMask,
        final byte[] payload, final int recordLength)
    {
        return new SaRequest(description, MadMethod.SET, attributeId, componentMask, payload,
            MadMethod.GET_RESP, attributeId, recordLength, RecordCheck.ANY, null, false);
    }

    /** SubnAdmDelete, answered by DeleteResp with the deleted record. */
    public static SaRequest delete(final String description, final int attributeId, final long componentMask,
        final byte[] payload, final int recordLength)
    {
        return new SaRequest(description, MadMethod.DELETE, attributeId, componentMask, payload,
            MadMethod.DELETE_RESP, attributeId, recordLength, RecordCheck.ANY, null, false);
    }

    /**
     * SubnAdmGetMulti, sent with RMPP (one DATA segment, flags Active|First|Last; OpenSM refuses it
     * otherwise) and answered by GetMultiResp carrying records of {@code responseAttributeId}.
     */
    public static SaRequest getMulti(final String description, final int attributeId, final long componentMask,
        final byte[] payload, final int responseAttributeId, final int recordLength, final RecordCheck check,
        final Object cacheKey)
    {
        return new SaRequest(description, MadMethod.GET_MULTI, attributeId, componentMask, payload,
            MadMethod.GET_MULTI_RESP, responseAttributeId, recordLength, check, cacheKey, true);
    }

    public String description()
    {
        return description;
    }

    public int method()
    {
        return method;
    }

    public int attributeId()
    {
        return attributeId;
    }

    public long componentMask()
    {
        return componentMask;
    }

    public byte[] payload()
    {
        return payload.clone();
    }

    int payloadLength()
    {
        return payload.length;
    }

    byte[] payloadUnsafe()
    {
        return payload;
    }

    public int responseMethod()
    {
        return responseMethod;
    }

    public int responseAttributeId()
    {
        return responseAttributeId;
    }

    /** Bytes per record in the answer; 0 when any length is fine. */
    public int recordLength()
    {
        return recordLength;
    }

    public RecordCheck recordCheck()
    {
        return recordCheck;
    }

    public Object cacheKey()
    {
        return cacheKey;
    }

    public boolean rmppSend()
    {
        return rmppSend;
    }

    @Override
    public String toString()
    {
        return description + " (" + MadMethod.name(method) + " " + SaAttribute.name(attributeId) +
            ", component mask 0x" + Long.toHexString(componentMask) + ", " + payload.length + " bytes of data)";
    }
}

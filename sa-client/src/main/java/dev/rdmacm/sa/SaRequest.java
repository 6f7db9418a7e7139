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

    /**
     * SubnAdmGet of {@code attributeId}: exactly one record, answered by GetResp.
     * <pre>{@code
     * SaRequest.get(SaAttribute.PATH_RECORD).description("PathRecord Get ...").componentMask(mask)
     *     .payload(template).recordLength(PathRecord.LENGTH).check(check).cacheKey(query).build();
     * }</pre>
     */
    public static Builder get(final int attributeId)
    {
        return new Builder(MadMethod.GET, attributeId, MadMethod.GET_RESP, attributeId, false, true);
    }

    /** SubnAdmGetTable of {@code attributeId}: every matching record, answered by GetTableResp (RMPP on a real fabric). */
    public static Builder getTable(final int attributeId)
    {
        return new Builder(MadMethod.GET_TABLE, attributeId, MadMethod.GET_TABLE_RESP, attributeId, false, true);
    }

    /** SubnAdmSet of {@code attributeId}, answered by GetResp with the record as stored; never cached. */
    public static Builder set(final int attributeId)
    {
        return new Builder(MadMethod.SET, attributeId, MadMethod.GET_RESP, attributeId, false, false);
    }

    /** SubnAdmDelete of {@code attributeId}, answered by DeleteResp with the deleted record; never cached. */
    public static Builder delete(final int attributeId)
    {
        return new Builder(MadMethod.DELETE, attributeId, MadMethod.DELETE_RESP, attributeId, false, false);
    }

    /**
     * SubnAdmGetMulti of {@code attributeId}, sent with RMPP (one DATA segment, flags Active|First|Last;
     * OpenSM refuses it otherwise) and answered by GetMultiResp carrying records of {@code responseAttributeId}.
     */
    public static Builder getMulti(final int attributeId, final int responseAttributeId)
    {
        return new Builder(MadMethod.GET_MULTI, attributeId, MadMethod.GET_MULTI_RESP, responseAttributeId, true, true);
    }

    /**
     * The parts of one request that differ between queries of a method: what it is called (for errors
     * and traces), the component mask, the attribute's bytes, the record length and check of the answer,
     * and the cache key. The method, the response method and attributes are fixed by the factory.
     */
    public static final class Builder
    {
        private final int method;
        private final int attributeId;
        private final int responseMethod;
        private final int responseAttributeId;
        private final boolean rmppSend;
        private final boolean sideEffectFree;
        private String description;
        private long componentMask;
        private byte[] payload = new byte[0];
        private int recordLength;
        private RecordCheck recordCheck = RecordCheck.ANY;
        private Object cacheKey;

        private Builder(final int method, final int attributeId, final int responseMethod, final int responseAttributeId,
            final boolean rmppSend, final boolean sideEffectFree)
        {
            this.method = method;
            this.attributeId = attributeId;
            this.responseMethod = responseMethod;
            this.responseAttributeId = responseAttributeId;
            this.rmppSend = rmppSend;
            this.sideEffectFree = sideEffectFree;
        }

        /** What the query is, e.g. {@code PathRecord Get {sgid=... dgid=...}}: errors and traces name it. Required. */
        public Builder description(final String value)
        {
            this.description = value;
            return this;
        }

        /** The SA component mask (which fields of the payload the SA matches); 0 by default. */
        public Builder componentMask(final long value)
        {
            this.componentMask = value;
            return this;
        }

        /** The attribute's bytes (copied); none by default. */
        public Builder payload(final byte[] value)
        {
            this.payload = value.clone();
            return this;
        }

        /** Bytes per record in the answer, a multiple of 8; 0 (the default) when any length is fine. */
        public Builder recordLength(final int value)
        {
            this.recordLength = value;
            return this;
        }

        /** What every returned record must satisfy; {@link RecordCheck#ANY} by default. */
        public Builder check(final RecordCheck value)
        {
            this.recordCheck = value;
            return this;
        }

        /** The query's identity for the cache and in-flight coalescing; null (the default) for neither. */
        public Builder cacheKey(final Object value)
        {
            this.cacheKey = value;
            return this;
        }

        /**
         * @throws IllegalArgumentException without a description, with more attribute data than an SA MAD
         *         holds, a record length that is not a multiple of 8, or a cache key on a Set or Delete.
         */
        public SaRequest build()
        {
            if (description == null || description.isBlank())
            {
                throw new IllegalArgumentException(MadMethod.name(method) + " " + SaAttribute.name(attributeId) +
                    ": a request needs a description");
            }
            if (cacheKey != null && !sideEffectFree)
            {
                throw new IllegalArgumentException(description + ": a " + MadMethod.name(method) +
                    " has side effects and cannot be cached or coalesced (cache key " + cacheKey + ")");
            }
            return new SaRequest(description, method, attributeId, componentMask, payload, responseMethod,
                responseAttributeId, recordLength, recordCheck, cacheKey, rmppSend);
        }
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

package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.RecordCheck;
import dev.rdmacm.sa.SaRequest;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A PathRecord query: the components the caller fixes (each null or 0 when free) and whether it is a
 * Get (one record, as the kernel asks) or a GetTable (every record, as saquery asks). A value: equal
 * queries share the cache entry and coalesce in flight. Built by name rather than by position:
 * <pre>{@code
 * PathQuery.builder().sgid(sgid).dgid(dgid).pKey(PKey.of(0xffff)).serviceId(sid).qosClass(0)
 *     .numbPath(1).reversible(true).build();
 * }</pre>
 *
 * @param dgid      destination GID, or null.
 * @param sgid      source GID, or null (the SA then uses the requester's port).
 * @param dlid      destination LID, or 0.
 * @param slid      source LID, or 0.
 * @param pKey      P_Key, or null.
 * @param serviceId Service ID, or null.
 * @param tClass    traffic class, or null.
 * @param qosClass  QoS class, or null.
 * @param sl        service level, or null.
 * @param numbPath  the most paths wanted; 0 leaves NumbPath out of the query.
 * @param reversible ask only for paths usable in both directions.
 * @param table     GetTable instead of Get.
 */
public record PathQuery(
    Gid dgid, Gid sgid, int dlid, int slid, Integer pKey, Long serviceId, Integer tClass, Integer qosClass,
    Integer sl, int numbPath, boolean reversible, boolean table)
{
    public PathQuery
    {
        if (dgid == null && dlid == 0 && !table)
        {
            throw new IllegalArgumentException("a PathRecord Get needs a destination: a DGID or a DLID (only a GetTable may leave it open)");
        }
        requireRange("DLID", dlid, 0, 0xffff);
        requireRange("SLID", slid, 0, 0xffff);
        requireRange("NumbPath", numbPath, 0, 127);
        if (pKey != null)
        {
            requireRange("P_Key", pKey, 0, 0xffff);
        }
        if (tClass != null)
        {
            requireRange("TClass", tClass, 0, 0xff);
        }
        if (qosClass != null)
        {
            requireRange("QoSClass", qosClass, 0, 0xfff);
        }
        if (sl != null)
        {
            requireRange("SL", sl, 0, 15);
        }
    }

    /** A query with every component free: a Get of no particular number of paths, in either direction. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** The query the kernel sends for rdma_resolve_route: SGID, DGID, reversible, one path. */
    public static PathQuery byGids(final Gid sgid, final Gid dgid)
    {
        return builder().sgid(sgid).dgid(dgid).numbPath(1).reversible(true).build();
    }

    public static PathQuery byLids(final int slid, final int dlid)
    {
        return builder().slid(slid).dlid(dlid).numbPath(1).reversible(true).build();
    }

    /** The components by name; what is not set stays free. {@link #build()} checks the ranges. */
    public static final class Builder
    {
        private Gid dgid;
        private Gid sgid;
        private int dlid;
        private int slid;
        private Integer pKey;
        private Long serviceId;
        private Integer tClass;
        private Integer qosClass;
        private Integer sl;
        private int numbPath;
        private boolean reversible;
        private boolean table;

        private Builder()
        {
        }

        /** The destination GID; null leaves it free. */
        public Builder dgid(final Gid value)
        {
            this.dgid = value;
            return this;
        }

        /** The source GID; null leaves it free (the SA then uses the requester's port). */
        public Builder sgid(final Gid value)
        {
            this.sgid = value;
            return this;
        }

        /** The destination LID; 0 leaves it free. */
        public Builder dlid(final int value)
        {
            this.dlid = value;
            return this;
        }

        public Builder dlid(final Lid value)
        {
            return dlid(value.value());
        }

        /** The source LID; 0 leaves it free. */
        public Builder slid(final int value)
        {
            this.slid = value;
            return this;
        }

        public Builder slid(final Lid value)
        {
            return slid(value.value());
        }

        /** The P_Key, 0..0xffff. */
        public Builder pKey(final int value)
        {
            this.pKey = value;
            return this;
        }

        public Builder pKey(final PKey value)
        {
            return pKey(value.value());
        }

        public Builder serviceId(final long value)
        {
            this.serviceId = value;
            return this;
        }

        /** The traffic class, 0..255. */
        public Builder tClass(final int value)
        {
            this.tClass = value;
            return this;
        }

        /** The QoS class, 0..4095. */
        public Builder qosClass(final int value)
        {
            this.qosClass = value;
            return this;
        }

        /** The service level, 0..15. */
        public Builder sl(final int value)
        {
            this.sl = value;
            return this;
        }

        /** The most paths wanted, 0..127; 0 (the default) leaves NumbPath out of the query. */
        public Builder numbPath(final int value)
        {
            this.numbPath = value;
            return this;
        }

        /** Ask only for paths usable in both directions; false by default. */
        public Builder reversible(final boolean value)
        {
            this.reversible = value;
            return this;
        }

        /** A GetTable (every record) instead of a Get (one); false by default. */
        public Builder table(final boolean value)
        {
            this.table = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the component and its range, or a Get without a destination. */
        public PathQuery build()
        {
            return new PathQuery(dgid, sgid, dlid, slid, pKey, serviceId, tClass, qosClass, sl, numbPath, reversible, table);
        }
    }

    public PathQuery asTable()
    {
        return new PathQuery(dgid, sgid, dlid, slid, pKey, serviceId, tClass, qosClass, sl, numbPath, reversible, true);
    }

    public long componentMask()
    {
        long mask = 0;
        mask |= dgid != null ? PathRecordComponentMask.DGID : 0;
        mask |= sgid != null ? PathRecordComponentMask.SGID : 0;
        mask |= dlid != 0 ? PathRecordComponentMask.DLID : 0;
        mask |= slid != 0 ? PathRecordComponentMask.SLID : 0;
        mask |= pKey != null ? PathRecordComponentMask.P_KEY : 0;
        mask |= serviceId != null ? PathRecordComponentMask.SERVICE_ID : 0;
        mask |= tClass != null ? PathRecordComponentMask.TCLASS : 0;
        mask |= qosClass != null ? PathRecordComponentMask.QOS_CLASS : 0;
        mask |= sl != null ? PathRecordComponentMask.SL : 0;
        mask |= numbPath != 0 ? PathRecordComponentMask.NUMB_PATH : 0;
        mask |= reversible ? PathRecordComponentMask.REVERSIBLE : 0;
        return mask;
    }

    /** The 64-byte PathRecord template of this query. */
    public byte[] encode()
    {
        final byte[] bytes = new byte[PathRecord.LENGTH];
        final PathRecord pr = new PathRecord().wrap(new UnsafeBuffer(bytes), 0);
        if (dgid != null)
        {
            pr.dgid(dgid);
        }
        if (sgid != null)
        {
            pr.sgid(sgid);
        }
        pr.dlid(dlid).slid(slid).numbPath(numbPath).reversible(reversible);
        if (pKey != null)
        {
            pr.pKey(pKey);
        }
        if (serviceId != null)
        {
            pr.serviceId(serviceId);
        }
        if (tClass != null)
        {
            pr.tClass(tClass);
        }
        if (qosClass != null)
        {
            pr.qosClass(qosClass);
        }
        if (sl != null)
        {
            pr.sl(sl);
        }
        return bytes;
    }

    /**
     * The SA request; every returned record must carry the GIDs, LIDs, P_Key and SL the query fixed,
     * so a stray or damaged record is dropped instead of returned.
     */
    public SaRequest toRequest()
    {
        final String description = "PathRecord " + (table ? "GetTable" : "Get") + " " + this;
        final RecordCheck check = this::matches;
        final SaRequest.Builder request = table ?
            SaRequest.getTable(SaAttribute.PATH_RECORD) : SaRequest.get(SaAttribute.PATH_RECORD);
        return request.description(description).componentMask(componentMask()).payload(encode())
            .recordLength(PathRecord.LENGTH).check(check).cacheKey(this).build();
    }

    private boolean matches(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < PathRecord.LENGTH)
        {
            return false;
        }
        final PathRecord pr = new PathRecord().wrap(buffer, offset, length);
        return (dgid == null || (pr.dgidPrefix() == dgid.subnetPrefix() && pr.dgidInterfaceId() == dgid.interfaceId())) &&
            (sgid == null || (pr.sgidPrefix() == sgid.subnetPrefix() && pr.sgidInterfaceId() == sgid.interfaceId())) &&
            (dlid == 0 || pr.dlid() == dlid) &&
            (slid == 0 || pr.slid() == slid) &&
            (pKey == null || pr.pKey() == pKey) &&
            (sl == null || pr.sl() == sl);
    }

    private static void requireRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " " + value + " out of range " + min + ".." + max);
        }
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("{");
        if (sgid != null)
        {
            text.append("sgid=").append(sgid).append(' ');
        }
        if (dgid != null)
        {
            text.append("dgid=").append(dgid).append(' ');
        }
        if (slid != 0)
        {
            text.append("slid=").append(slid).append(' ');
        }
        if (dlid != 0)
        {
            text.append("dlid=").append(dlid).append(' ');
        }
        if (pKey != null)
        {
            text.append(String.format("pkey=0x%04x ", pKey));
        }
        if (serviceId != null)
        {
            text.append(String.format("service_id=0x%016x ", serviceId));
        }
        if (tClass != null)
        {
            text.append("tclass=").append(tClass).append(' ');
        }
        if (qosClass != null)
        {
            text.append("qos_class=").append(qosClass).append(' ');
        }
        if (sl != null)
        {
            text.append("sl=").append(sl).append(' ');
        }
        return text.append("numb_path=").append(numbPath).append(" reversible=").append(reversible).append('}').toString();
    }
}

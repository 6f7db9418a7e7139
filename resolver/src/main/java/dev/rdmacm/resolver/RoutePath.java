package dev.rdmacm.resolver;

import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.sa.path.PathRecordValue;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Objects;

/**
 * One path of a route, immutable: what the kernel returns for {@code RDMA_USER_CM_QUERY_PATH} as one
 * {@code struct ibv_path_data}, the path record and what the path is for. The wire form is derived where
 * it is needed ({@link #encode}, {@link #toPathData}), and read back with {@link #decode}:
 * <pre>
 *  ibv_path_data          here
 *  flags (u32, host)      {@link #flags()}, the IBV_PATH_FLAG_* bits widened to a long
 *  reserved (u32)         not kept: always written 0
 *  path (ibv_path_record) {@link #record()}: every field of the 64 bytes but the reserved ones
 * </pre>
 * Bit 31 of {@code flowlabel_hoplimit}, reserved in {@code ibv_path_record}, is where the kernel's
 * {@code ucma_query_path} packs {@code raw_traffic} (a byte of the destination MAC on RoCE, see
 * {@code RoceRouteSynthesizer}); the record keeps it as {@link PathRecordValue#rawTraffic()}, as the
 * SA PathRecord, whose layout this is, names it. The reserved bits 30-28 and bytes 58-63 are not kept,
 * so they read back 0, as the kernel packs them.
 * <p>
 * An application of librdmacm reads the path as {@code id->route.path_rec}, which {@code ucma_convert_path}
 * fills from these fields: the flow label as {@link #librdmacmFlowLabel()}, {@code preference} as
 * {@link #librdmacmPreference()}, {@code raw_traffic} 0, {@code numb_path} 1, every selector
 * {@link #LIBRDMACM_SELECTOR} and the MTU, rate and packet lifetime codes cut to 5 bits
 * ({@link #LIBRDMACM_CODE_MASK}).
 *
 * @param flags  the {@code IBV_PATH_FLAG_*} bits, 32 bits; a route from the kernel has GMP | PRIMARY |
 *               BIDIRECTIONAL (0x2b).
 * @param record the path's fields.
 */
public record RoutePath(long flags, PathRecordValue record)
{
    /**
     * {@code ucma_query_path} marks every path {@code IB_PATH_GMP | IB_PATH_PRIMARY |
     * IB_PATH_BIDIRECTIONAL} (0x2b, the value ibacm uses too).
     */
    public static final int PATH_DATA_FLAGS =
        IbvPathData.FLAG_GMP | IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_BIDIRECTIONAL;

    /** The selector {@code ucma_convert_path} writes for MTU, rate and packet lifetime: exactly. */
    public static final int LIBRDMACM_SELECTOR = Selector.EXACTLY.code();
    /** {@code ucma_convert_path} keeps the low 5 bits of the MTU, rate and packet lifetime codes. */
    public static final int LIBRDMACM_CODE_MASK = 0x1f;
    private static final long U32_MASK = 0xffff_ffffL;
    private static final int FLOW_LABEL_HOP_LIMIT_SHIFT = 8;
    /** Bit 31 of {@code flowlabel_hoplimit} once shifted right by 8, as {@code ucma_convert_path} shifts it. */
    private static final int LIBRDMACM_RAW_TRAFFIC_BIT = 1 << (31 - FLOW_LABEL_HOP_LIMIT_SHIFT);

    /**
     * Checks the flags.
     *
     * @throws IllegalArgumentException for flags wider than the 32-bit field.
     */
    public RoutePath
    {
        Objects.requireNonNull(record, "record");
        if ((flags & ~U32_MASK) != 0)
        {
            throw new IllegalArgumentException("ibv_path_data flags 0x" + Long.toHexString(flags) +
                " do not fit the 32-bit field");
        }
    }

    /**
     * The path {@code ucma_query_path} makes of an SA PathRecord (64 bytes): flags GMP | PRIMARY | BIDIRECTIONAL.
     *
     * @param saRecord the PathRecord's 64 bytes, as the SA sent them.
     * @return the path.
     */
    public static RoutePath fromSaRecord(final byte[] saRecord)
    {
        if (saRecord.length < PathRecord.LENGTH)
        {
            throw new IllegalArgumentException("PathRecord must be " + PathRecord.LENGTH + " bytes, got " +
                saRecord.length);
        }
        return new RoutePath(PATH_DATA_FLAGS, PathRecordValue.decode(saRecord));
    }

    /**
     * Reads the 72 bytes of one {@code ibv_path_data} at {@code offset}.
     *
     * @param buffer holds the record.
     * @param offset where it begins.
     * @return the path.
     */
    public static RoutePath decode(final DirectBuffer buffer, final int offset)
    {
        final IbvPathData data = new IbvPathData().wrap(buffer, offset, buffer.capacity() - offset);
        final byte[] path = new byte[IbvPathRecord.LENGTH];
        buffer.getBytes(offset + IbvPathData.PATH_OFFSET, path);
        return new RoutePath(data.flags(), PathRecordValue.decode(path));
    }

    /**
     * Reads one {@code ibv_path_data}, which must be exactly 72 bytes.
     *
     * @param pathData the record.
     * @return the path.
     */
    public static RoutePath fromPathData(final byte[] pathData)
    {
        if (pathData.length != IbvPathData.LENGTH)
        {
            throw new IllegalArgumentException("ibv_path_data must be " + IbvPathData.LENGTH + " bytes, got " +
                pathData.length);
        }
        return decode(new UnsafeBuffer(pathData), 0);
    }

    /**
     * Writes the 72 bytes of this path's {@code ibv_path_data} at {@code offset}.
     *
     * @param buffer where to write, 72 bytes from {@code offset}.
     * @param offset where the record begins.
     * @throws IllegalArgumentException naming the field when a value is wider than its field.
     */
    public void encode(final MutableDirectBuffer buffer, final int offset)
    {
        final IbvPathData data = new IbvPathData().wrap(buffer, offset).clear().flags(flags);
        final PathRecordValue r = record;
        data.path()
            .serviceId(r.serviceId())
            .dgid(r.dgid())
            .sgid(r.sgid())
            .dlid(r.dlid().value())
            .slid(r.slid().value())
            .kernelRawTrafficBit(r.rawTraffic())
            .flowLabel(r.flowLabel())
            .hopLimit(r.hopLimit())
            .tClass(r.tClass())
            .reversible(r.reversible())
            .numbPath(r.numbPath())
            .pKey(r.pKey().value())
            .qosClass(r.qosClass())
            .sl(r.sl())
            .mtuSelector(Selector.fromCode(r.mtuSelector()))
            .mtu(r.mtu())
            .rateSelector(Selector.fromCode(r.rateSelector()))
            .rate(r.rate())
            .packetLifeTimeSelector(Selector.fromCode(r.packetLifeTimeSelector()))
            .packetLifeTime(r.packetLifeTime())
            .preference(r.preference());
    }

    /** {@return a new array with this path's {@code ibv_path_data}, 72 bytes} */
    public byte[] toPathData()
    {
        final byte[] bytes = new byte[IbvPathData.LENGTH];
        encode(new UnsafeBuffer(bytes), 0);
        return bytes;
    }

    /** {@return whether {@code IBV_PATH_FLAG_PRIMARY} is set} */
    public boolean isPrimary()
    {
        return (flags & IbvPathData.FLAG_PRIMARY) != 0;
    }

    /**
     * {@code path_rec.flow_label} as librdmacm's {@code ucma_convert_path} hands it to an application:
     * {@code flowlabel_hoplimit >> 8}, 24 bits whose bit 23 is the RawTraffic bit the kernel packed.
     *
     * @return the flow label as the application sees it.
     */
    public int librdmacmFlowLabel()
    {
        return (record.rawTraffic() ? LIBRDMACM_RAW_TRAFFIC_BIT : 0) | record.flowLabel();
    }

    /** {@return {@code path_rec.preference} as {@code ucma_convert_path} fills it: the low byte of the flags (43 for 0x2b)} */
    public int librdmacmPreference()
    {
        return (int)(flags & 0xff);
    }

    @Override
    public String toString()
    {
        return "RoutePath[flags=" + IbvPathData.flagNames(flags) + ", record=" + record + "]";
    }
}

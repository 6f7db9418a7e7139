package dev.rdmacm.resolver;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One {@code struct ibv_sa_path_rec} as librdmacm fills {@code id->route.path_rec} after
 * ROUTE_RESOLVED: {@code ucma_convert_path} applied to the {@code ibv_path_data} the kernel returned
 * for {@code RDMA_USER_CM_QUERY_PATH}. That conversion is lossy and librdmacm's own, so an application
 * comparing fields sees these values, not the wire record's:
 * <ul>
 * <li>{@code flow_label} is {@code flowlabel_hoplimit >> 8}: 24 bits, whose bit 23 is the RawTraffic
 * bit the kernel packed (a byte of the destination MAC on RoCE, see {@link RoceRouteSynthesizer});</li>
 * <li>{@code raw_traffic} is always 0 and {@code numb_path} always 1;</li>
 * <li>every selector is 2 (exactly) whatever the record said;</li>
 * <li>{@code preference} is the low byte of the path-data flags (43 = GMP | PRIMARY | BIDIRECTIONAL).</li>
 * </ul>
 * LIDs, P_Key and flow label are in host order here (librdmacm keeps them big-endian in the struct).
 */
public record PathRec(
    Gid dgid,
    Gid sgid,
    int dlid,
    int slid,
    int rawTraffic,
    int flowLabel,
    int hopLimit,
    int trafficClass,
    int reversible,
    int numbPath,
    int pkey,
    int sl,
    int mtuSelector,
    int mtu,
    int rateSelector,
    int rate,
    int packetLifeTimeSelector,
    int packetLifeTime,
    int preference)
{
    /** The selector {@code ucma_convert_path} writes for MTU, rate and packet lifetime: exactly. */
    public static final int SELECTOR_EXACTLY = 2;
    private static final int VALUE_MASK = 0x1f;
    private static final int SL_MASK = 0xf;

    /** {@code ucma_convert_path} of one 72-byte {@code ibv_path_data}. */
    public static PathRec fromPathData(final byte[] pathData)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(pathData);
        final IbvPathData data = new IbvPathData().wrap(buffer, 0, pathData.length);
        final IbvPathRecord path = data.path();
        final int flowLabelHopLimit = buffer.getInt(IbvPathData.PATH_OFFSET + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET,
            ByteOrder.BIG_ENDIAN);
        return new PathRec(
            path.dgid(),
            path.sgid(),
            path.dlid(),
            path.slid(),
            0,
            flowLabelHopLimit >>> 8,
            flowLabelHopLimit & 0xff,
            path.tClass(),
            path.reversible() ? 1 : 0,
            1,
            path.pKey(),
            path.sl() & SL_MASK,
            SELECTOR_EXACTLY,
            path.mtu() & VALUE_MASK,
            SELECTOR_EXACTLY,
            path.rate() & VALUE_MASK,
            SELECTOR_EXACTLY,
            path.packetLifeTime() & VALUE_MASK,
            (int)(data.flags() & 0xff));
    }
}

package dev.rdmacm.resolver;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * {@code rdma_set_option(RDMA_OPTION_IB, RDMA_OPTION_IB_PATH)} as the 6.1 kernel takes it
 * ({@code ucma_set_ib_path} and {@code rdma_set_ib_path}):
 * <ul>
 * <li>the first {@code ibv_path_data} whose flags are exactly GMP | PRIMARY | BIDIRECTIONAL (0x2b) is
 * the path; none such is EINVAL;</li>
 * <li>it is unpacked into an IB {@code sa_path_rec} and packed again when read back, so its reserved
 * bits come back 0;</li>
 * <li>on RoCE {@code cma_iboe_set_path_rec_l2_fields} then writes {@code roce.route_resolved} and the
 * destination MAC over the union that holds the DLID, SLID and RawTraffic (see
 * {@link RoceRouteSynthesizer}), so those read back as the MAC's bytes whatever was given; an id bound
 * to no netdev (loopback) is ENODEV.</li>
 * </ul>
 */
public final class IbPathOption
{
    /** Bits 30-28 of {@code flowlabel_hoplimit}: reserved in both the SA record and ibv_path_record. */
    private static final int RESERVED_FLOW_LABEL_BITS = 0x7000_0000;

    private IbPathOption()
    {
    }

    /**
     * The path the kernel keeps from {@code records}, as it will read back.
     *
     * @throws RouteException EINVAL for no record with the primary flags, ENODEV on RoCE without a netdev.
     */
    public static byte[] kept(final List<byte[]> records, final AddressResolution resolution, final boolean roce)
        throws RouteException
    {
        final byte[] chosen = records.stream()
            .filter(r -> r.length == IbvPathData.LENGTH &&
                new IbvPathData().wrap(new UnsafeBuffer(r), 0, r.length).flags() == IbRoute.PATH_DATA_FLAGS)
            .findFirst()
            .orElseThrow(() -> new RouteException(Errno.EINVAL, "no ibv_path_data of " + IbvPathData.LENGTH +
                " bytes with flags 0x" + Integer.toHexString(IbRoute.PATH_DATA_FLAGS) + " (GMP | PRIMARY | BIDIRECTIONAL)"));
        final byte[] kept = chosen.clone();
        final UnsafeBuffer buffer = new UnsafeBuffer(kept);
        final int path = IbvPathData.PATH_OFFSET;
        for (int i = IbvPathRecord.RESERVED_OFFSET; i < IbvPathRecord.RESERVED_OFFSET + IbvPathRecord.RESERVED_LENGTH; i++)
        {
            buffer.putByte(path + i, (byte)0);
        }
        final int word = path + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET;
        buffer.putInt(word, buffer.getInt(word, ByteOrder.BIG_ENDIAN) & ~RESERVED_FLOW_LABEL_BITS, ByteOrder.BIG_ENDIAN);
        if (roce)
        {
            if (resolution.ifindex() == 0)
            {
                throw new RouteException(Errno.ENODEV, "the id is bound to no netdev (bound_dev_if 0)");
            }
            RoceRouteSynthesizer.writeL2Fields(new IbvPathRecord().wrap(buffer, path),
                RoceRouteSynthesizer.destinationMac(resolution));
        }
        return kept;
    }
}

package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.RoutePath;
import org.agrona.concurrent.UnsafeBuffer;

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
    private IbPathOption()
    {
    }

    /**
     * The path the kernel keeps from {@code records}, as it will read back.
     *
     * @throws RouteException EINVAL for no record with the primary flags, ENODEV on RoCE without a netdev.
     */
    public static RoutePath kept(final List<byte[]> records, final AddressResolution resolution, final boolean roce)
        throws RouteException
    {
        final byte[] chosen = records.stream()
            .filter(r -> r.length == IbvPathData.LENGTH &&
                new IbvPathData().wrap(new UnsafeBuffer(r), 0, r.length).flags() == RoutePath.PATH_DATA_FLAGS)
            .findFirst()
            .orElseThrow(() -> new RouteException(Errno.EINVAL, "no ibv_path_data of " + IbvPathData.LENGTH +
                " bytes with flags 0x" + Integer.toHexString(RoutePath.PATH_DATA_FLAGS) + " (GMP | PRIMARY | BIDIRECTIONAL)"));
        // the typed path keeps no reserved bits, as the kernel's sa_path_rec has none to pack again
        final RoutePath kept = RoutePath.fromPathData(chosen);
        if (!roce)
        {
            return kept;
        }
        if (resolution.ifindex() == 0)
        {
            throw new RouteException(Errno.ENODEV, "the id is bound to no netdev (bound_dev_if 0)");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(kept.toPathData());
        RoceRouteSynthesizer.writeL2Fields(new IbvPathRecord().wrap(buffer, IbvPathData.PATH_OFFSET),
            RoceRouteSynthesizer.destinationMac(resolution));
        return RoutePath.decode(buffer, 0);
    }
}

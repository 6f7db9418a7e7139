package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.path.PathRecordValue;

/**
 * The path the kernel builds for a RoCE port without asking anyone ({@code cma_resolve_iboe_route}
 * in drivers/infiniband/core/cma.c), built as the {@link RoutePath} it is consumed as:
 * <ul>
 * <li>SGID and DGID: {@code rdma_ip2gid} of the source and destination addresses;</li>
 * <li>hop limit: the route's ({@code addr->dev_addr.hoplimit}), 1 for an AF_IB destination;</li>
 * <li>reversible 1, P_Key 0xFFFF, every selector EQ;</li>
 * <li>traffic class: the id's ToS if set, else the port's {@code default_roce_tos};</li>
 * <li>SL: {@code iboe_tos_to_sl}: {@code rt_tos2priority(tos)} through the netdev's priority map;</li>
 * <li>MTU: {@code iboe_get_mtu(ndev->mtu)}, which is 0 (EINVAL) below 256 + headers;</li>
 * <li>rate: {@code IB_RATE_PORT_CURRENT} (kernels before 6.5 asked ethtool for the speed);</li>
 * <li>packet lifetime: {@code ack_timeout - 1} when {@code rdma_set_ack_timeout} gave a non-zero
 * value, else {@code CMA_IBOE_PACKET_LIFETIME} of the {@link KernelProfile} (18 in 6.1, 16 in mainline);</li>
 * <li>flow label, on ports that can do RoCE v2 ({@code rdma_protocol_roce_udp_encap}):
 * {@code cma_get_roce_udp_flow_label}.</li>
 * </ul>
 * The DLID, SLID and bit 31 of {@code flowlabel_hoplimit} are kernel artifacts, reproduced because
 * an application sees them. {@code ucma_query_path} hands a RoCE {@code sa_path_rec} to
 * {@code ib_sa_pack_path}, which reads {@code ib.dlid}, {@code ib.slid} and {@code ib.raw_traffic}
 * through the record's union, where a RoCE record keeps {@code roce.route_resolved} (true, set by
 * {@code cma_iboe_set_path_rec_l2_fields}) and {@code roce.dmac}:
 * <pre>
 *  union byte   0               1        2        3        4
 *  roce         route_resolved  dmac[0]  dmac[1]  dmac[2]  dmac[3]
 *  ib           dlid (be16)------------  slid (be16)-----  raw_traffic (u8, packed as 1 bit)
 * </pre>
 * So DLID is {@code 0x0100 | dmac[0]}, SLID {@code dmac[1] << 8 | dmac[2]}, and the RawTraffic bit is
 * {@code dmac[3] & 1}, which librdmacm's {@code ucma_convert_path} turns into bit 23 of the flow label.
 */
final class RoceRouteSynthesizer
{
    public static final int ROCE_PKEY = 0xffff;
    /** {@code roce.route_resolved} (true) in the byte the DLID's high byte aliases. */
    static final int ROUTE_RESOLVED_DLID_BITS = 0x0100;
    /** {@code IB_RATE_PORT_CURRENT}. */
    public static final int RATE_PORT_CURRENT = 0;
    /** {@code IB_GRH_FLOWLABEL_MASK}. */
    public static final int FLOW_LABEL_MASK = 0xfffff;
    /** GRH 40 + UDP 8 + BTH 12 + XRC ETH 4 + AtomicETH 28 + ICRC 4, as {@code iboe_get_mtu} subtracts. */
    public static final int IBOE_HEADER_BYTES = 40 + 8 + 12 + 4 + 28 + 4;

    /** The P_Key every RoCE path has. */
    private static final PKey ROCE_P_KEY = PKey.of(ROCE_PKEY);
    /** Every selector of a RoCE path. */
    private static final int EXACTLY = Selector.EXACTLY.code();
    /** The bits of the hop limit and traffic class fields. */
    private static final int U8_MASK = 0xff;
    /** The bits of the SL field. */
    private static final int SL_MASK = 0xf;
    /** The bits of the MTU, rate and packet lifetime codes. */
    private static final int CODE_MASK = 0x3f;

    /** {@code ip_tos2prio} of net/ipv4/route.c, indexed by {@code IPTOS_TOS(tos) >> 1}. */
    private static final int[] IP_TOS_TO_PRIORITY = {0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4};
    private static final int IPTOS_TOS_MASK = 0x1e;
    /** The IB MTUs {@code iboe_get_mtu} tries, largest first. */
    private static final MtuCode[] MTUS_LARGEST_FIRST = {MtuCode.MTU_4096, MtuCode.MTU_2048, MtuCode.MTU_1024,
        MtuCode.MTU_512, MtuCode.MTU_256};

    private RoceRouteSynthesizer()
    {
    }

    /**
     * The path of {@code input}, with the flags {@code ucma_query_path} gives every path (GMP, PRIMARY,
     * BIDIRECTIONAL), built as the values it is consumed as: no {@code ibv_path_data} is written to be
     * decoded again. Each value is cut to its field's bits as the record's flyweights cut it, so
     * {@link RoutePath#encode} writes the bytes the kernel's {@code ucma_query_path} packs.
     *
     * @throws RouteException EINVAL when the netdev's MTU leaves less than 256 bytes of payload.
     */
    static RoutePath path(final RoceRouteInput input) throws RouteException
    {
        final int mtu = iboeMtu(input.netdevMtu());
        if (mtu == 0)
        {
            throw new RouteException(Errno.EINVAL, "netdev MTU " + input.netdevMtu() + " leaves less than " +
                MtuCode.MTU_256.bytes() + " bytes after the " + IBOE_HEADER_BYTES + " bytes of RoCE headers");
        }
        final int tos = input.idTos() != null ? input.idTos() : input.defaultRoceTos();
        final byte[] mac = input.destinationMac();
        final int packetLifeTime = input.ackTimeout() != null && input.ackTimeout() != 0 ?
            input.ackTimeout() - 1 : input.profile().iboePacketLifetime();
        return new RoutePath(RoutePath.PATH_DATA_FLAGS, new PathRecordValue(
            0L,
            input.dgid(),
            input.sgid(),
            Lid.of(l2Dlid(mac)),
            Lid.of(l2Slid(mac)),
            l2RawTraffic(mac),
            input.portSupportsRoceV2() ?
                flowLabel(input.ipv6Source(), input.sourceFlowinfo(), input.sourcePort(), input.destinationPort()) : 0,
            (input.ibDestination() ? 1 : input.hopLimit()) & U8_MASK,
            tos & U8_MASK,
            true,
            0,
            ROCE_P_KEY,
            0,
            input.priorityToTrafficClass().applyAsInt(rtTos2Priority(tos)) & SL_MASK,
            EXACTLY,
            mtu,
            EXACTLY,
            RATE_PORT_CURRENT,
            EXACTLY,
            packetLifeTime & CODE_MASK,
            0));
    }

    /**
     * What {@code cma_iboe_set_path_rec_l2_fields} leaves in the fields a RoCE path record shares with
     * {@code roce.route_resolved} and {@code roce.dmac} (the union drawn in the class comment), as
     * {@code ucma_query_path} then packs them: DLID, SLID and the RawTraffic bit from the MAC.
     */
    static void writeL2Fields(final IbvPathRecord path, final byte[] destinationMac)
    {
        path.dlid(l2Dlid(destinationMac)).slid(l2Slid(destinationMac)).kernelRawTrafficBit(l2RawTraffic(destinationMac));
    }

    /** {@code roce.route_resolved} and {@code dmac[0]} under {@code ib.dlid}. */
    private static int l2Dlid(final byte[] destinationMac)
    {
        return ROUTE_RESOLVED_DLID_BITS | (destinationMac[0] & 0xff);
    }

    /** {@code dmac[1]} and {@code dmac[2]} under {@code ib.slid}. */
    private static int l2Slid(final byte[] destinationMac)
    {
        return (destinationMac[1] & 0xff) << 8 | (destinationMac[2] & 0xff);
    }

    /** {@code dmac[3]} under {@code ib.raw_traffic}, packed as one bit. */
    private static boolean l2RawTraffic(final byte[] destinationMac)
    {
        return (destinationMac[3] & 1) != 0;
    }

    /** {@code dev_addr.dst_dev_addr} as a MAC; zeros when the neighbour had none (IFF_NOARP, loopback). */
    static byte[] destinationMac(final AddressResolution resolution)
    {
        final byte[] hardware = resolution.destinationHardwareAddress().toBytes();
        final byte[] mac = new byte[RoceRouteInput.MAC_LENGTH];
        System.arraycopy(hardware, 0, mac, 0, Math.min(hardware.length, mac.length));
        return mac;
    }

    /** {@code iboe_get_mtu}: the largest IB MTU code that fits the netdev MTU less the headers, or 0. */
    public static int iboeMtu(final int netdevMtu)
    {
        final int payload = netdevMtu - IBOE_HEADER_BYTES;
        for (final MtuCode code : MTUS_LARGEST_FIRST)
        {
            if (payload >= code.bytes())
            {
                return code.code();
            }
        }
        return 0;
    }

    /** {@code rt_tos2priority}: the skb priority the IP stack gives a ToS ({@code ip_tos2prio}). */
    public static int rtTos2Priority(final int tos)
    {
        return IP_TOS_TO_PRIORITY[(tos & IPTOS_TOS_MASK) >> 1];
    }

    /**
     * {@code cma_get_roce_udp_flow_label}: the IPv6 source's flow label when it has one, else
     * {@code (sport * 31 + dport) & 0xFFFFF}.
     */
    public static int flowLabel(
        final boolean ipv6Source, final int sourceFlowinfo, final int sourcePort, final int destinationPort)
    {
        final int label = sourceFlowinfo & FLOW_LABEL_MASK;
        if (ipv6Source && label != 0)
        {
            return label;
        }
        return (sourcePort * 31 + destinationPort) & FLOW_LABEL_MASK;
    }
}

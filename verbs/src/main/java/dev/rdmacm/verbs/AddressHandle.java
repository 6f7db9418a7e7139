package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static dev.rdmacm.verbs.IbvLayouts.IBV_AH_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An address handle ({@code ibv_create_ah}) naming the destination of UD sends. The same struct is
 * an RC QP's path ({@code ibv_qp_attr.ah_attr}), written and read by the same two methods here.
 * <pre>
 *  struct ibv_ah_attr (32 bytes)
 *   0  grh.dgid (16, network order)   16 grh.flow_label (u32)
 *  20  grh.sgid_index  21 grh.hop_limit  22 grh.traffic_class  23 pad
 *  24  dlid (u16)  26 sl  27 src_path_bits  28 static_rate  29 is_global  30 port_num  31 pad
 * </pre>
 */
public final class AddressHandle extends NativeResource
{
    static final long DGID_OFFSET = offset(IBV_AH_ATTR, "grh", "dgid");
    static final long FLOW_LABEL_OFFSET = offset(IBV_AH_ATTR, "grh", "flow_label");
    static final long SGID_INDEX_OFFSET = offset(IBV_AH_ATTR, "grh", "sgid_index");
    static final long HOP_LIMIT_OFFSET = offset(IBV_AH_ATTR, "grh", "hop_limit");
    static final long TRAFFIC_CLASS_OFFSET = offset(IBV_AH_ATTR, "grh", "traffic_class");
    static final long DLID_OFFSET = offset(IBV_AH_ATTR, "dlid");
    static final long SL_OFFSET = offset(IBV_AH_ATTR, "sl");
    static final long SRC_PATH_BITS_OFFSET = offset(IBV_AH_ATTR, "src_path_bits");
    static final long STATIC_RATE_OFFSET = offset(IBV_AH_ATTR, "static_rate");
    static final long IS_GLOBAL_OFFSET = offset(IBV_AH_ATTR, "is_global");
    static final long PORT_NUM_OFFSET = offset(IBV_AH_ATTR, "port_num");

    private final MemorySegment ah;
    private final AddressVector destination;

    AddressHandle(final ProtectionDomain pd, final AddressVector destination)
    {
        super(pd.context().registry(), "AH to " + destination + " on " + pd.context().deviceName());
        this.destination = destination;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_AH_ATTR);
            write(destination, attr);
            ah = LibIbverbs.create("ibv_create_ah", this::toString,
                errno -> (MemorySegment)LibIbverbs.QueuePairs.CREATE_AH.invokeExact(errno, pd.segment(), attr));
        }
        register();
    }

    public AddressVector destination()
    {
        return destination;
    }

    /** Writes {@code destination} into a zeroed {@code struct ibv_ah_attr}. */
    static void write(final AddressVector destination, final MemorySegment attr)
    {
        attr.set(JAVA_SHORT, DLID_OFFSET, (short)destination.dlid());
        attr.set(JAVA_BYTE, SL_OFFSET, (byte)destination.serviceLevel());
        attr.set(JAVA_BYTE, SRC_PATH_BITS_OFFSET, (byte)destination.srcPathBits());
        attr.set(JAVA_BYTE, STATIC_RATE_OFFSET, (byte)destination.staticRate());
        attr.set(JAVA_BYTE, PORT_NUM_OFFSET, (byte)destination.port());
        attr.set(JAVA_BYTE, IS_GLOBAL_OFFSET, (byte)(destination.grh().isPresent() ? 1 : 0));
        destination.grh().ifPresent(grh ->
        {
            MemorySegment.copy(grh.dgid().toBytes(), 0, attr, JAVA_BYTE, DGID_OFFSET, 16);
            attr.set(JAVA_INT, FLOW_LABEL_OFFSET, grh.flowLabel());
            attr.set(JAVA_BYTE, SGID_INDEX_OFFSET, (byte)grh.sgidIndex());
            attr.set(JAVA_BYTE, HOP_LIMIT_OFFSET, (byte)grh.hopLimit());
            attr.set(JAVA_BYTE, TRAFFIC_CLASS_OFFSET, (byte)grh.trafficClass());
        });
    }

    /**
     * Reads a {@code struct ibv_ah_attr} that the kernel filled ({@code ibv_query_qp}'s
     * {@code ah_attr}): empty when it names no port, as before a QP's RTR.
     */
    static Optional<AddressVector> read(final MemorySegment attr)
    {
        final int port = Byte.toUnsignedInt(attr.get(JAVA_BYTE, PORT_NUM_OFFSET));
        if (port == 0)
        {
            return Optional.empty();
        }
        final Optional<AddressVector.GlobalRoute> grh = attr.get(JAVA_BYTE, IS_GLOBAL_OFFSET) == 0 ? Optional.empty()
            : Optional.of(new AddressVector.GlobalRoute(Gid.fromBytes(attr.asSlice(DGID_OFFSET, 16).toArray(JAVA_BYTE), 0),
                Byte.toUnsignedInt(attr.get(JAVA_BYTE, SGID_INDEX_OFFSET)), Byte.toUnsignedInt(attr.get(JAVA_BYTE, HOP_LIMIT_OFFSET)),
                Byte.toUnsignedInt(attr.get(JAVA_BYTE, TRAFFIC_CLASS_OFFSET)), attr.get(JAVA_INT, FLOW_LABEL_OFFSET) & 0xf_ffff));
        return Optional.of(new AddressVector(port, Short.toUnsignedInt(attr.get(JAVA_SHORT, DLID_OFFSET)),
            attr.get(JAVA_BYTE, SL_OFFSET) & 0xf, attr.get(JAVA_BYTE, SRC_PATH_BITS_OFFSET) & 0x7f,
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, STATIC_RATE_OFFSET)), grh));
    }

    MemorySegment segment()
    {
        return ah;
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_destroy_ah", this::toString, errno -> (int)LibIbverbs.QueuePairs.DESTROY_AH.invokeExact(errno, ah));
    }
}

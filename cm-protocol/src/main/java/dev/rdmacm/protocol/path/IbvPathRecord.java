package dev.rdmacm.protocol.path;

import dev.rdmacm.protocol.sa.PathRecordLayout;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over librdmacm's {@code struct ibv_path_record} ({@code infiniband/sa.h}), 64 bytes: the
 * form in which ibacm hands paths to librdmacm and {@code rdma_set_option(RDMA_OPTION_IB_PATH)} takes
 * them. Every multi-byte field is {@code __be} and sits where the SA PathRecord has it, so the layout
 * drawn in {@link PathRecordLayout} holds; the one difference is that bits 31-28 of
 * {@code flowlabel_hoplimit} are reserved here (RawTraffic in the SA record). The kernel's
 * {@code ucma_query_path} still packs its {@code raw_traffic} into bit 31 (a RoCE route has a byte of
 * the destination MAC there), and librdmacm's {@code ucma_convert_path} shifts it into bit 23 of the
 * application's flow label, so {@link #kernelRawTrafficBit(boolean)} writes it.
 * <pre>
 *  C field              offset  bits
 *  service_id                0  __be64
 *  dgid, sgid            8, 24  16 bytes each
 *  dlid, slid           40, 42  __be16
 *  flowlabel_hoplimit       44  __be32: reserved 31:28, flow label 27:8, hop limit 7:0
 *  tclass                   48
 *  reversible_numpath       49  reversible 7, num path 6:0
 *  pkey                     50  __be16
 *  qosclass_sl              52  __be16: qos class 15:4, sl 3:0
 *  mtu, rate, packetlifetime 54, 55, 56  selector 7:6, value 5:0
 *  preference               57
 *  reserved[6]              58
 * </pre>
 */
public final class IbvPathRecord extends PathRecordLayout<IbvPathRecord>
{
    /** {@code IBV_PATH_RECORD_REVERSIBLE}: the reversible bit of {@code reversible_numpath}. */
    public static final int REVERSIBLE_BIT = 0x80;

    public IbvPathRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ibv_path_record", buffer, offset, length, LENGTH);
        return this;
    }

    public IbvPathRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Bit 31 of {@code flowlabel_hoplimit}, reserved by rdma-core, where the kernel packs {@code raw_traffic}. */
    public boolean kernelRawTrafficBit()
    {
        return rawTrafficBit();
    }

    public IbvPathRecord kernelRawTrafficBit(final boolean value)
    {
        rawTrafficBit(value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "ibv_path_record{unwrapped}";
        }
        final StringBuilder text = new StringBuilder(512).append("ibv_path_record{");
        appendFields(text);
        return text.append('}').toString();
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.verbs.AddressVector;

import java.util.Arrays;
import java.util.Objects;

/**
 * librdmacm's {@code struct rdma_ud_param}, what an ESTABLISHED event of a UD id (RDMA_PS_UDP) carries
 * after a SIDR resolution: where the remote UD QP is and how to address it. The kernel fills it in
 * {@code cma_sidr_rep_handler} (cma.c) from the SIDR_REP (QPN, Q_Key, private data) and from the
 * id's route ({@code ib_init_ah_attr_from_path}); librdmacm copies it out in {@code ucma_copy_ud_event}.
 * Immutable: the private data is copied on the way in and out, and compared by content.
 *
 * @param privateData the SIDR_REP's private data, all 136 bytes of the field.
 * @param ahAttr      the address handle attributes to the remote QP: the id's port, on RoCE DLID 0 and a
 *                    GRH to the route's DGID from the id's GID index, with the route's hop limit, traffic
 *                    class and flow label; the route's SL and rate.
 * @param qpNumber    the remote QP number, 24 bits.
 * @param qkey        the remote QP's Q_Key (rdma_cm's {@code RDMA_UDP_QKEY}, 0x01234567, for RDMA_PS_UDP).
 */
public record UdParameters(byte[] privateData, AddressVector ahAttr, int qpNumber, long qkey)
{
    /**
     * Checks the QPN (24 bits) and the Q_Key (32 bits) and copies the private data.
     *
     * @throws IllegalArgumentException naming both and their widths.
     */
    public UdParameters
    {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        Objects.requireNonNull(ahAttr, "ahAttr");
        if (qpNumber < 0 || qpNumber > 0xff_ffff || qkey < 0 || qkey > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("UD parameters: QPN 0x" + Integer.toHexString(qpNumber) + " (24 bits) or Q_Key 0x"
                + Long.toHexString(qkey) + " (32 bits) out of range");
        }
    }

    /** {@return a copy of the private data} */
    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof UdParameters p && Arrays.equals(privateData, p.privateData) && ahAttr.equals(p.ahAttr) &&
            qpNumber == p.qpNumber && qkey == p.qkey;
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(privateData) + Objects.hash(ahAttr, qpNumber, qkey);
    }

    @Override
    public String toString()
    {
        return "qp_num 0x" + Integer.toHexString(qpNumber) + " qkey 0x" + Long.toHexString(qkey) + " ah_attr " + ahAttr;
    }
}

package dev.rdmacm.umad;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over {@code struct ib_user_mad_hdr} ({@code <rdma/ib_user_mad.h>}, umad ABI 5 with the
 * P_Key index, which {@link UmadPort} always enables): the 64 bytes that precede every MAD read from
 * or written to {@code /dev/infiniband/umadN}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         id (agent, host)                      |  0
 *  |                         status (host: 0 or ETIMEDOUT)         |  4
 *  |                         timeout_ms (host)                     |  8
 *  |                         retries (host)                        | 12
 *  |                         length (host)                         | 16
 *  |                         qpn (big-endian)                      | 20
 *  |                         qkey (big-endian)                     | 24
 *  +-------------------------------+---------------+---------------+
 *  |          lid (big-endian)     |      sl       |   path_bits   | 28
 *  +---------------+---------------+---------------+---------------+
 *  |  grh_present  |   gid_index   |   hop_limit   | traffic_class | 32
 *  +---------------+---------------+---------------+---------------+
 *  |                         gid (16 bytes, network order)         | 36
 *  +---------------------------------------------------------------+
 *  |                         flow_label (big-endian)               | 52
 *  +-------------------------------+-------------------------------+
 *  |       pkey_index (host)       |         reserved[6]           | 56
 *  +-------------------------------+-------------------------------+
 * </pre>
 * Byte order as the header declares it: the {@code __u32}/{@code __u16} fields are the CPU's order,
 * the {@code __be32}/{@code __be16} ones (qpn, qkey, lid, flow_label) network order, and the GID its
 * 16 wire bytes. The offsets are checked against the installed header by a gcc-compiled probe.
 * <p>
 * What the kernel fills in on a receive (user_mad.c {@code recv_handler}): status 0, length = 64 +
 * MAD length, qpn = the sender's QP, lid = its LID (0 on RoCE), sl, path_bits, pkey_index = the P_Key
 * index the MAD arrived with and, with a GRH, gid = the sender's GID, gid_index = the local GID index
 * it arrived at, hop_limit, traffic_class, flow_label. A send that expected a response and got none
 * comes back as this same header (the one written, status set to {@code ETIMEDOUT}) followed by the
 * MAD's 24-byte common header only.
 */
public final class UserMadHeader extends Flyweight
{
    public static final int AGENT_ID_OFFSET = 0;
    public static final int STATUS_OFFSET = 4;
    public static final int TIMEOUT_MS_OFFSET = 8;
    public static final int RETRIES_OFFSET = 12;
    public static final int LENGTH_OFFSET = 16;
    public static final int QPN_OFFSET = 20;
    public static final int QKEY_OFFSET = 24;
    public static final int LID_OFFSET = 28;
    public static final int SL_OFFSET = 30;
    public static final int PATH_BITS_OFFSET = 31;
    public static final int GRH_PRESENT_OFFSET = 32;
    public static final int GID_INDEX_OFFSET = 33;
    public static final int HOP_LIMIT_OFFSET = 34;
    public static final int TRAFFIC_CLASS_OFFSET = 35;
    public static final int GID_OFFSET = 36;
    public static final int FLOW_LABEL_OFFSET = 52;
    public static final int PKEY_INDEX_OFFSET = 56;
    public static final int RESERVED_OFFSET = 58;
    public static final int RESERVED_LENGTH = 6;
    /** {@code sizeof(struct ib_user_mad_hdr)}; the MAD follows at this offset. */
    public static final int LENGTH = 64;

    /** Wraps {@code buffer} for reading, checking that a whole header lies inside it. */
    public UserMadHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ib_user_mad_hdr", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public UserMadHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Zeroes the whole header, reserved bytes included. */
    public UserMadHeader clear()
    {
        zero(0, LENGTH);
        return this;
    }

    public int agentId()
    {
        return (int)hostU32(AGENT_ID_OFFSET);
    }

    public UserMadHeader agentId(final int value)
    {
        putHostU32(AGENT_ID_OFFSET, value);
        return this;
    }

    /** 0, or a positive errno: {@code ETIMEDOUT} for a send whose response never came. */
    public int status()
    {
        return (int)hostU32(STATUS_OFFSET);
    }

    /** Whether this is a send of ours coming back because no response came in time (status ETIMEDOUT). */
    public boolean sendTimedOut()
    {
        return status() == Errno.ETIMEDOUT;
    }

    public UserMadHeader status(final int value)
    {
        putHostU32(STATUS_OFFSET, value);
        return this;
    }

    public long timeoutMs()
    {
        return hostU32(TIMEOUT_MS_OFFSET);
    }

    public UserMadHeader timeoutMs(final long value)
    {
        putHostU32(TIMEOUT_MS_OFFSET, value);
        return this;
    }

    public long retries()
    {
        return hostU32(RETRIES_OFFSET);
    }

    public UserMadHeader retries(final long value)
    {
        putHostU32(RETRIES_OFFSET, value);
        return this;
    }

    /** On a receive, this header's 64 bytes plus the MAD's; ignored on a send (write(2)'s count rules). */
    public long length()
    {
        return hostU32(LENGTH_OFFSET);
    }

    public UserMadHeader length(final long value)
    {
        putHostU32(LENGTH_OFFSET, value);
        return this;
    }

    public int qpn()
    {
        return (int)u32(QPN_OFFSET);
    }

    public UserMadHeader qpn(final int value)
    {
        putU32(QPN_OFFSET, value);
        return this;
    }

    public long qkey()
    {
        return u32(QKEY_OFFSET);
    }

    public UserMadHeader qkey(final long value)
    {
        putU32(QKEY_OFFSET, value);
        return this;
    }

    public int lid()
    {
        return u16(LID_OFFSET);
    }

    public UserMadHeader lid(final int value)
    {
        putU16(LID_OFFSET, value);
        return this;
    }

    public int sl()
    {
        return u8(SL_OFFSET);
    }

    public UserMadHeader sl(final int value)
    {
        putU8(SL_OFFSET, value);
        return this;
    }

    public int pathBits()
    {
        return u8(PATH_BITS_OFFSET);
    }

    public UserMadHeader pathBits(final int value)
    {
        putU8(PATH_BITS_OFFSET, value);
        return this;
    }

    public boolean grhPresent()
    {
        return u8(GRH_PRESENT_OFFSET) != 0;
    }

    public UserMadHeader grhPresent(final boolean value)
    {
        putU8(GRH_PRESENT_OFFSET, value ? 1 : 0);
        return this;
    }

    public int gidIndex()
    {
        return u8(GID_INDEX_OFFSET);
    }

    public UserMadHeader gidIndex(final int value)
    {
        putU8(GID_INDEX_OFFSET, value);
        return this;
    }

    public int hopLimit()
    {
        return u8(HOP_LIMIT_OFFSET);
    }

    public UserMadHeader hopLimit(final int value)
    {
        putU8(HOP_LIMIT_OFFSET, value);
        return this;
    }

    public int trafficClass()
    {
        return u8(TRAFFIC_CLASS_OFFSET);
    }

    public UserMadHeader trafficClass(final int value)
    {
        putU8(TRAFFIC_CLASS_OFFSET, value);
        return this;
    }

    /** The GID's upper 8 bytes (subnet prefix) as wire-order bits; no allocation. */
    public long gidSubnetPrefix()
    {
        return u64(GID_OFFSET);
    }

    /** The GID's lower 8 bytes (interface ID) as wire-order bits; no allocation. */
    public long gidInterfaceId()
    {
        return u64(GID_OFFSET + 8);
    }

    public Gid gid()
    {
        return gidAt(GID_OFFSET);
    }

    public UserMadHeader gid(final Gid value)
    {
        putGid(GID_OFFSET, value.subnetPrefix(), value.interfaceId());
        return this;
    }

    public int flowLabel()
    {
        return (int)u32(FLOW_LABEL_OFFSET);
    }

    public UserMadHeader flowLabel(final int value)
    {
        putU32(FLOW_LABEL_OFFSET, value);
        return this;
    }

    public int pkeyIndex()
    {
        return hostU16(PKEY_INDEX_OFFSET);
    }

    public UserMadHeader pkeyIndex(final int value)
    {
        putHostU16(PKEY_INDEX_OFFSET, value);
        return this;
    }

    /** The address fields as a {@link MadAddress} (allocates: for the slow path; hot paths read the fields). */
    public MadAddress address()
    {
        final MadAddress.Grh grh = grhPresent() ?
            new MadAddress.Grh(gid(), gidIndex(), hopLimit(), trafficClass(), flowLabel()) : null;
        return new MadAddress(qpn(), qkey(), lid(), sl(), pathBits(), pkeyIndex(), grh);
    }

    /** Writes the address fields from {@code address}; a GRH's fields are zeroed when there is none. */
    public UserMadHeader address(final MadAddress address)
    {
        qpn(address.remoteQpn()).qkey(address.qkey()).lid(address.lid()).sl(address.sl()).pathBits(address.pathBits())
            .pkeyIndex(address.pkeyIndex());
        final MadAddress.Grh grh = address.grh();
        if (grh == null)
        {
            return grhPresent(false).gidIndex(0).hopLimit(0).trafficClass(0).gid(Gid.ZERO).flowLabel(0);
        }
        return grhPresent(true).gidIndex(grh.localGidIndex()).hopLimit(grh.hopLimit()).trafficClass(grh.trafficClass())
            .gid(grh.remoteGid()).flowLabel(grh.flowLabel());
    }

    @Override
    public String toString()
    {
        return "ib_user_mad_hdr{id=" + agentId() + ", status=" + status() + ", timeout_ms=" + timeoutMs() +
            ", retries=" + retries() + ", length=" + length() + ", qpn=" + qpn() + ", qkey=0x" + Long.toHexString(qkey()) +
            ", lid=" + lid() + ", sl=" + sl() + ", path_bits=" + pathBits() + ", grh_present=" + (grhPresent() ? 1 : 0) +
            ", gid_index=" + gidIndex() + ", hop_limit=" + hopLimit() + ", traffic_class=" + trafficClass() +
            ", gid=" + gid() + ", flow_label=0x" + Integer.toHexString(flowLabel()) + ", pkey_index=" + pkeyIndex() + "}";
    }
}

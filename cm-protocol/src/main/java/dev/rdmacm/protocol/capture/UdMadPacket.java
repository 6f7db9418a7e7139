package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over a whole InfiniBand packet that carries one MAD on a UD QP, as a capture holds it and
 * as tshark's {@code infiniband} dissector reads it:
 * <pre>
 *  +---------+----------+---------+---------+-----------+----------+----------+
 *  | LRH (8) | GRH (40) | BTH (12)| DETH (8)| MAD (256) | ICRC (4) | VCRC (2) |
 *  +---------+----------+---------+---------+-----------+----------+----------+
 *             only when
 *             LRH.LNH = 3
 *  |&lt;------------ LRH.PktLen * 4 (288 or 328 bytes) ------------------&gt;|
 *                       |&lt;----------- GRH.PayLen (280 bytes) ---------&gt;|
 * </pre>
 * A frame is 290 bytes without a GRH ({@link #LOCAL_FRAME_LENGTH}) and 330 with one
 * ({@link #GLOBAL_FRAME_LENGTH}). The sub-headers are reached through {@link #lrh()}, {@link #grh()},
 * {@link #bth()} and {@link #deth()}; the MAD starts at {@link #madOffset()}.
 * <p>
 * The ICRC and VCRC are written as zero: no peer on a machine without InfiniBand hardware computes
 * them for us to check against, and tshark displays them without checking.
 */
public final class UdMadPacket extends Flyweight
{
    public static final int ICRC_LENGTH = 4;
    public static final int VCRC_LENGTH = 2;

    public static final int LRH_OFFSET = 0;
    /** Where the GRH starts when there is one; everything after it moves by its 40 bytes. */
    public static final int GRH_OFFSET = LocalRouteHeader.LENGTH;
    public static final int BTH_OFFSET_LOCAL = LocalRouteHeader.LENGTH;
    public static final int DETH_OFFSET_LOCAL = BTH_OFFSET_LOCAL + BaseTransportHeader.LENGTH;
    public static final int MAD_OFFSET_LOCAL = DETH_OFFSET_LOCAL + DatagramExtendedTransportHeader.LENGTH;
    public static final int ICRC_OFFSET_LOCAL = MAD_OFFSET_LOCAL + MadHeader.MAD_SIZE;
    public static final int VCRC_OFFSET_LOCAL = ICRC_OFFSET_LOCAL + ICRC_LENGTH;

    public static final int LOCAL_FRAME_LENGTH = VCRC_OFFSET_LOCAL + VCRC_LENGTH;
    public static final int GLOBAL_FRAME_LENGTH = LOCAL_FRAME_LENGTH + GlobalRouteHeader.LENGTH;
    /** LRH.PktLen of a local frame: LRH through ICRC in 4-byte words. */
    public static final int LOCAL_PACKET_LENGTH_WORDS = (LOCAL_FRAME_LENGTH - VCRC_LENGTH) / 4;
    public static final int GLOBAL_PACKET_LENGTH_WORDS = (GLOBAL_FRAME_LENGTH - VCRC_LENGTH) / 4;
    /** GRH.PayLen: BTH through ICRC. */
    public static final int GRH_PAYLOAD_LENGTH = LOCAL_FRAME_LENGTH - VCRC_LENGTH - LocalRouteHeader.LENGTH;

    private final LocalRouteHeader lrh = new LocalRouteHeader();
    private final GlobalRouteHeader grh = new GlobalRouteHeader();
    private final BaseTransportHeader bth = new BaseTransportHeader();
    private final DatagramExtendedTransportHeader deth = new DatagramExtendedTransportHeader();
    private boolean global;

    /**
     * Wraps a received or captured frame for reading and checks the framing rules: LNH 2 or 3, a GRH's
     * NxtHdr 0x1B, a UD SEND Only opcode, a PktLen (and PayLen) that fits exactly one 256-byte MAD and
     * every byte of the frame present.
     */
    public UdMadPacket wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("UD MAD packet", buffer, offset, length, LocalRouteHeader.LENGTH);
        lrh.wrap(buffer, offset + LRH_OFFSET, length);
        final int lnh = lrh.linkNextHeader();
        if (lnh != LocalRouteHeader.LNH_IBA_LOCAL && lnh != LocalRouteHeader.LNH_IBA_GLOBAL)
        {
            throw new MalformedMessageException("UD MAD packet: LRH LNH " + lnh +
                " is neither 2 (IBA local) nor 3 (IBA global)");
        }
        final boolean withGrh = lnh == LocalRouteHeader.LNH_IBA_GLOBAL;
        MalformedMessageException.requireLength("UD MAD packet", length,
            withGrh ? GLOBAL_FRAME_LENGTH : LOCAL_FRAME_LENGTH);
        final int expectedWords = withGrh ? GLOBAL_PACKET_LENGTH_WORDS : LOCAL_PACKET_LENGTH_WORDS;
        if (lrh.packetLengthWords() != expectedWords)
        {
            throw new MalformedMessageException("UD MAD packet: LRH PktLen " + lrh.packetLengthWords() +
                " words, a UD packet with one 256-byte MAD has " + expectedWords);
        }
        if (withGrh)
        {
            grh.wrap(buffer, offset + GRH_OFFSET, length - GRH_OFFSET);
            if (grh.nextHeader() != GlobalRouteHeader.NEXT_HEADER_IBA_TRANSPORT)
            {
                throw new MalformedMessageException("UD MAD packet: GRH NxtHdr 0x" +
                    Integer.toHexString(grh.nextHeader()) + " is not 0x1b (IBA transport)");
            }
            if (grh.payloadLength() != GRH_PAYLOAD_LENGTH)
            {
                throw new MalformedMessageException("UD MAD packet: GRH PayLen " + grh.payloadLength() +
                    " bytes, a UD packet with one 256-byte MAD has " + GRH_PAYLOAD_LENGTH);
            }
        }
        this.global = withGrh;
        bth.wrap(buffer, offset + bthOffset(), BaseTransportHeader.LENGTH);
        deth.wrap(buffer, offset + dethOffset(), DatagramExtendedTransportHeader.LENGTH);
        if (bth.opCode() != BaseTransportHeader.OPCODE_UD_SEND_ONLY)
        {
            throw new MalformedMessageException("UD MAD packet: BTH OpCode 0x" + Integer.toHexString(bth.opCode()) +
                " is not 0x64 (UD SEND Only)");
        }
        return this;
    }

    /**
     * Wraps {@code buffer} for writing a frame and fills in what the framing fixes: LVer 0, LNH, PktLen,
     * a GRH's IPVer, PayLen and NxtHdr, the BTH opcode with TVer 0 and zero reserved bits, and zero
     * CRCs. The caller sets LIDs, QPs, keys and the MAD bytes.
     *
     * @param withGrh whether a GRH follows the LRH (LNH 3) or not (LNH 2).
     */
    public UdMadPacket wrapForFraming(final MutableDirectBuffer buffer, final int offset, final boolean withGrh)
    {
        wrapForWriting(buffer, offset);
        this.global = withGrh;
        buffer.setMemory(offset, frameLength(), (byte)0);
        lrh.wrap(buffer, offset + LRH_OFFSET)
            .linkNextHeader(withGrh ? LocalRouteHeader.LNH_IBA_GLOBAL : LocalRouteHeader.LNH_IBA_LOCAL)
            .packetLengthWords(withGrh ? GLOBAL_PACKET_LENGTH_WORDS : LOCAL_PACKET_LENGTH_WORDS);
        if (withGrh)
        {
            grh.wrap(buffer, offset + GRH_OFFSET)
                .ipVersion(GlobalRouteHeader.IP_VERSION)
                .payloadLength(GRH_PAYLOAD_LENGTH)
                .nextHeader(GlobalRouteHeader.NEXT_HEADER_IBA_TRANSPORT);
        }
        bth.wrap(buffer, offset + bthOffset()).opCode(BaseTransportHeader.OPCODE_UD_SEND_ONLY);
        deth.wrap(buffer, offset + dethOffset());
        return this;
    }

    public boolean hasGrh()
    {
        return global;
    }

    public LocalRouteHeader lrh()
    {
        return lrh;
    }

    /** The GRH, present only when {@link #hasGrh()}. */
    public GlobalRouteHeader grh()
    {
        if (!global)
        {
            throw new IllegalStateException("this packet has no GRH (LRH LNH is 2)");
        }
        return grh;
    }

    public BaseTransportHeader bth()
    {
        return bth;
    }

    public DatagramExtendedTransportHeader deth()
    {
        return deth;
    }

    /** The offset of the BTH from the start of the frame. */
    public int bthOffset()
    {
        return global ? BTH_OFFSET_LOCAL + GlobalRouteHeader.LENGTH : BTH_OFFSET_LOCAL;
    }

    /** The offset of the DETH from the start of the frame. */
    public int dethOffset()
    {
        return bthOffset() + BaseTransportHeader.LENGTH;
    }

    /** The offset of the MAD from the start of the frame. */
    public int madOffset()
    {
        return dethOffset() + DatagramExtendedTransportHeader.LENGTH;
    }

    /** The offset of the ICRC from the start of the frame. */
    public int icrcOffset()
    {
        return madOffset() + MadHeader.MAD_SIZE;
    }

    /** The offset of the VCRC from the start of the frame. */
    public int vcrcOffset()
    {
        return icrcOffset() + ICRC_LENGTH;
    }

    /** The bytes of the frame, LRH through VCRC. */
    public int frameLength()
    {
        return global ? GLOBAL_FRAME_LENGTH : LOCAL_FRAME_LENGTH;
    }

    public long invariantCrc()
    {
        return u32(icrcOffset());
    }

    public UdMadPacket invariantCrc(final long value)
    {
        putU32(icrcOffset(), value);
        return this;
    }

    public int variantCrc()
    {
        return u16(vcrcOffset());
    }

    public UdMadPacket variantCrc(final int value)
    {
        putU16(vcrcOffset(), value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "UdMadPacket{unwrapped}";
        }
        return "UdMadPacket{" + lrh + (global ? ", " + grh : "") + ", " + bth + ", " + deth +
            ", ICRC=0x" + Long.toHexString(invariantCrc()) + ", VCRC=0x" + Integer.toHexString(variantCrc()) + "}";
    }
}

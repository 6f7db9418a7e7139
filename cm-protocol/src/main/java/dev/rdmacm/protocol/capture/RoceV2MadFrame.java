package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over a whole RoCE v2 Ethernet frame that carries one MAD between two QPs (UD SEND Only),
 * as a RoCE NIC puts it on the wire and {@code dumpcap} records it:
 * <pre>
 *  +---------------+--------------------+---------+----------+----------+-----------+----------+
 *  | Ethernet (14) | IPv4 (20) | IPv6 (40) | UDP (8) | BTH (12) | DETH (8) | MAD (256) | ICRC (4) |
 *  +---------------+--------------------+---------+----------+----------+-----------+----------+
 *    dst MAC, src MAC,  IPv4 when both GIDs are   dst port 4791                       {@link RoceInvariantCrc}
 *    EtherType 0800     IPv4-mapped, else IPv6;   checksum 0 (IPv4)
 *    or 86dd            protocol 17 (UDP)
 *
 *  IPv4 (20, no options)                        IPv6 (40)
 *   0      | 0x45 (version 4, IHL 5)             0 | version 6 | traffic class | flow label (20)
 *   1      | TOS = GRH traffic class             4 | payload length            | next 17 | hop limit
 *   2..3   | total length                        8 | source address (16): the source GID
 *   4..5   | identification 0                   24 | destination address (16): the destination GID
 *   6..7   | flags DF, fragment offset 0
 *   8      | TTL = GRH hop limit
 *   9      | protocol 17
 *   10..11 | header checksum (RFC 791)
 *   12..19 | source, destination: the GIDs' IPv4 addresses
 * </pre>
 * A frame is 322 bytes over IPv4 ({@link #IPV4_FRAME_LENGTH}) and 342 over IPv6. The BTH and DETH
 * are reached through {@link #bth()} and {@link #deth()}, and the MAD starts at {@link #madOffset()}.
 * {@link #finish()} writes the IPv4 checksum and the ICRC once everything else is set.
 * <p>
 * What the MAD's sender does not know is written as fixed values: both MAC addresses are zero
 * (umad reports GIDs, not MACs), the UDP source port is {@link #UDP_SOURCE_PORT} (a NIC picks its own,
 * rxe from a hash of the QPN) and the BTH's PSN is 0.
 */
public final class RoceV2MadFrame extends Flyweight
{
    public static final int ETHERNET_DESTINATION_OFFSET = 0;
    public static final int ETHERNET_SOURCE_OFFSET = 6;
    public static final int ETHER_TYPE_OFFSET = 12;
    public static final int ETHERNET_HEADER_LENGTH = 14;
    public static final int ETHER_TYPE_IPV4 = 0x0800;
    public static final int ETHER_TYPE_IPV6 = 0x86dd;
    public static final int MAC_LENGTH = 6;

    public static final int IP_OFFSET = ETHERNET_HEADER_LENGTH;
    public static final int IPV4_VERSION_IHL_OFFSET = 0;
    public static final int IPV4_TOS_OFFSET = 1;
    public static final int IPV4_TOTAL_LENGTH_OFFSET = 2;
    public static final int IPV4_IDENTIFICATION_OFFSET = 4;
    public static final int IPV4_FLAGS_FRAGMENT_OFFSET = 6;
    public static final int IPV4_TTL_OFFSET = 8;
    public static final int IPV4_PROTOCOL_OFFSET = 9;
    public static final int IPV4_CHECKSUM_OFFSET = 10;
    public static final int IPV4_SOURCE_OFFSET = 12;
    public static final int IPV4_DESTINATION_OFFSET = 16;
    public static final int IPV4_HEADER_LENGTH = 20;
    public static final int IPV4_VERSION_IHL = 0x45;
    public static final int IPV4_DONT_FRAGMENT = 0x4000;

    public static final int IPV6_VERSION_CLASS_FLOW_OFFSET = 0;
    public static final int IPV6_PAYLOAD_LENGTH_OFFSET = 4;
    public static final int IPV6_NEXT_HEADER_OFFSET = 6;
    public static final int IPV6_HOP_LIMIT_OFFSET = 7;
    public static final int IPV6_SOURCE_OFFSET = 8;
    public static final int IPV6_DESTINATION_OFFSET = 24;
    public static final int IPV6_HEADER_LENGTH = 40;
    public static final int IPV6_VERSION = 6;

    public static final int IP_PROTOCOL_UDP = 17;
    public static final int UDP_SOURCE_PORT_OFFSET = 0;
    public static final int UDP_DESTINATION_PORT_OFFSET = 2;
    public static final int UDP_LENGTH_OFFSET = 4;
    public static final int UDP_CHECKSUM_OFFSET = 6;
    public static final int UDP_HEADER_LENGTH = 8;
    /** IANA's port for RoCE v2 (IBA A17.4.2). */
    public static final int ROCE_V2_UDP_PORT = 4791;
    /** The source port written: the first of rxe's range ({@code RXE_ROCE_V2_SPORT}). */
    public static final int UDP_SOURCE_PORT = 0xc000;

    /** UDP through ICRC. */
    public static final int UDP_LENGTH = UDP_HEADER_LENGTH + BaseTransportHeader.LENGTH
        + DatagramExtendedTransportHeader.LENGTH + MadHeader.MAD_SIZE + RoceInvariantCrc.LENGTH;
    public static final int IPV4_FRAME_LENGTH = ETHERNET_HEADER_LENGTH + IPV4_HEADER_LENGTH + UDP_LENGTH;
    public static final int IPV6_FRAME_LENGTH = ETHERNET_HEADER_LENGTH + IPV6_HEADER_LENGTH + UDP_LENGTH;

    private final BaseTransportHeader bth = new BaseTransportHeader();
    private final DatagramExtendedTransportHeader deth = new DatagramExtendedTransportHeader();
    private final RoceInvariantCrc icrc = new RoceInvariantCrc();
    private boolean ipv6;

    /**
     * Wraps {@code buffer} for writing a frame and fills in what the framing fixes: the EtherType, the
     * IP version, lengths and protocol (IPv4: DF set), the UDP ports and length with checksum 0, and the
     * BTH opcode. The caller sets the addresses, {@link #trafficClass}, {@link #hopLimit}, the BTH and
     * DETH fields and the MAD bytes, then calls {@link #finish()}.
     *
     * @param overIpv6 whether the IP header is IPv6 (the GIDs are not both IPv4-mapped).
     */
    public RoceV2MadFrame wrapForFraming(final MutableDirectBuffer buffer, final int offset, final boolean overIpv6)
    {
        wrapForWriting(buffer, offset);
        this.ipv6 = overIpv6;
        buffer.setMemory(offset, frameLength(), (byte)0);
        putU16(ETHER_TYPE_OFFSET, overIpv6 ? ETHER_TYPE_IPV6 : ETHER_TYPE_IPV4);
        if (overIpv6)
        {
            putU32(IP_OFFSET + IPV6_VERSION_CLASS_FLOW_OFFSET, (long)IPV6_VERSION << 28);
            putU16(IP_OFFSET + IPV6_PAYLOAD_LENGTH_OFFSET, UDP_LENGTH);
            putU8(IP_OFFSET + IPV6_NEXT_HEADER_OFFSET, IP_PROTOCOL_UDP);
        }
        else
        {
            putU8(IP_OFFSET + IPV4_VERSION_IHL_OFFSET, IPV4_VERSION_IHL);
            putU16(IP_OFFSET + IPV4_TOTAL_LENGTH_OFFSET, IPV4_HEADER_LENGTH + UDP_LENGTH);
            putU16(IP_OFFSET + IPV4_FLAGS_FRAGMENT_OFFSET, IPV4_DONT_FRAGMENT);
            putU8(IP_OFFSET + IPV4_PROTOCOL_OFFSET, IP_PROTOCOL_UDP);
        }
        putU16(udpOffset() + UDP_SOURCE_PORT_OFFSET, UDP_SOURCE_PORT);
        putU16(udpOffset() + UDP_DESTINATION_PORT_OFFSET, ROCE_V2_UDP_PORT);
        putU16(udpOffset() + UDP_LENGTH_OFFSET, UDP_LENGTH);
        bth.wrap(buffer, offset + bthOffset()).opCode(BaseTransportHeader.OPCODE_UD_SEND_ONLY);
        deth.wrap(buffer, offset + dethOffset());
        return this;
    }

    /** Whether both GIDs can travel in an IPv4 header: RoCE v2 over IPv4 uses IPv4-mapped GIDs. */
    public static boolean fitsIpv4(final Gid source, final Gid destination)
    {
        return source.isIpv4Mapped() && destination.isIpv4Mapped();
    }

    /**
     * The IP source and destination from the GIDs: their IPv4 addresses over IPv4, the 16 bytes over IPv6.
     *
     * @throws IllegalArgumentException over IPv4 when a GID is not IPv4-mapped.
     */
    public RoceV2MadFrame addresses(final Gid source, final Gid destination)
    {
        if (ipv6)
        {
            putGid(IP_OFFSET + IPV6_SOURCE_OFFSET, source.subnetPrefix(), source.interfaceId());
            putGid(IP_OFFSET + IPV6_DESTINATION_OFFSET, destination.subnetPrefix(), destination.interfaceId());
        }
        else
        {
            if (!fitsIpv4(source, destination))
            {
                throw new IllegalArgumentException("RoCE v2 over IPv4 needs IPv4-mapped GIDs: source " + source
                    + ", destination " + destination);
            }
            putU32(IP_OFFSET + IPV4_SOURCE_OFFSET, source.ipv4Address() & 0xffff_ffffL);
            putU32(IP_OFFSET + IPV4_DESTINATION_OFFSET, destination.ipv4Address() & 0xffff_ffffL);
        }
        return this;
    }

    /** The GRH's traffic class: the IPv4 TOS byte, or IPv6's Traffic Class. */
    public RoceV2MadFrame trafficClass(final int value)
    {
        if (ipv6)
        {
            final long word = u32(IP_OFFSET + IPV6_VERSION_CLASS_FLOW_OFFSET);
            putU32(IP_OFFSET + IPV6_VERSION_CLASS_FLOW_OFFSET, word & 0xf00f_ffffL | (long)(value & 0xff) << 20);
        }
        else
        {
            putU8(IP_OFFSET + IPV4_TOS_OFFSET, value);
        }
        return this;
    }

    /** The GRH's 20-bit flow label: IPv6 only (IPv4 has none, and the value is dropped). */
    public RoceV2MadFrame flowLabel(final int value)
    {
        if (ipv6)
        {
            final long word = u32(IP_OFFSET + IPV6_VERSION_CLASS_FLOW_OFFSET);
            putU32(IP_OFFSET + IPV6_VERSION_CLASS_FLOW_OFFSET, word & 0xfff0_0000L | value & 0xf_ffff);
        }
        return this;
    }

    /** The GRH's hop limit: the IPv4 TTL, or IPv6's Hop Limit. */
    public RoceV2MadFrame hopLimit(final int value)
    {
        putU8(IP_OFFSET + (ipv6 ? IPV6_HOP_LIMIT_OFFSET : IPV4_TTL_OFFSET), value);
        return this;
    }

    public BaseTransportHeader bth()
    {
        return bth;
    }

    public DatagramExtendedTransportHeader deth()
    {
        return deth;
    }

    public boolean overIpv6()
    {
        return ipv6;
    }

    public int udpOffset()
    {
        return IP_OFFSET + (ipv6 ? IPV6_HEADER_LENGTH : IPV4_HEADER_LENGTH);
    }

    public int bthOffset()
    {
        return udpOffset() + UDP_HEADER_LENGTH;
    }

    public int dethOffset()
    {
        return bthOffset() + BaseTransportHeader.LENGTH;
    }

    public int madOffset()
    {
        return dethOffset() + DatagramExtendedTransportHeader.LENGTH;
    }

    public int icrcOffset()
    {
        return madOffset() + MadHeader.MAD_SIZE;
    }

    public int frameLength()
    {
        return ipv6 ? IPV6_FRAME_LENGTH : IPV4_FRAME_LENGTH;
    }

    /**
     * Writes the checksums: over IPv4 the header checksum (RFC 791) and UDP checksum 0, as rxe sends it;
     * the ICRC, which masks both; over IPv6 last the UDP checksum (RFC 8200 8.1 requires one, and the
     * ICRC does not cover it), which RoCE receivers ignore.
     */
    public RoceV2MadFrame finish()
    {
        putU16(udpOffset() + UDP_CHECKSUM_OFFSET, 0);
        if (!ipv6)
        {
            putU16(IP_OFFSET + IPV4_CHECKSUM_OFFSET, 0);
            putU16(IP_OFFSET + IPV4_CHECKSUM_OFFSET, complement(sum(IP_OFFSET, IPV4_HEADER_LENGTH, 0)));
        }
        mutableBuffer.putInt(offset + icrcOffset(), icrc.compute(buffer, offset + IP_OFFSET, offset + icrcOffset(), ipv6),
            ByteOrder.LITTLE_ENDIAN);
        if (ipv6)
        {
            // pseudo-header: both addresses, the upper-layer length and the next header, then UDP through ICRC
            int sum = sum(IP_OFFSET + IPV6_SOURCE_OFFSET, 2 * 16, 0);
            sum += UDP_LENGTH + IP_PROTOCOL_UDP;
            final int checksum = complement(sum(udpOffset(), UDP_LENGTH, sum));
            putU16(udpOffset() + UDP_CHECKSUM_OFFSET, checksum == 0 ? 0xffff : checksum);
        }
        return this;
    }

    /** The ones' complement sum of {@code length} bytes (even) of 16-bit words from {@code field}, added to {@code sum}. */
    private int sum(final int field, final int length, final int sum)
    {
        int total = sum;
        for (int i = 0; i < length; i += 2)
        {
            total += u16(field + i);
        }
        return total;
    }

    private static int complement(final int sum)
    {
        int folded = sum;
        while (folded >> 16 != 0)
        {
            folded = (folded & 0xffff) + (folded >>> 16);
        }
        return ~folded & 0xffff;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "RoceV2MadFrame{unwrapped}";
        }
        return "RoceV2MadFrame{" + (ipv6 ? "IPv6" : "IPv4") + ", " + bth + ", " + deth + "}";
    }
}

package dev.rdmacm.conformance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The MADs in a classic pcap of RoCE v2 frames, as {@code dumpcap -P} writes them on an rxe device's
 * netdev. Only UD SEND-only packets to or from QP1 (the GSI) are MADs; RC traffic is skipped.
 * <pre>
 *   Ethernet (14) | IPv4 (IHL x 4) or IPv6 (40) | UDP (8, port 4791) | BTH (12) | DETH (8) | MAD (256) | ICRC (4)
 * </pre>
 * A test-side reader: what the kernel sent is decoded by the production decoder and by tshark, and
 * the two are compared.
 */
final class RoceMadFrames
{
    static final int ROCE_V2_PORT = 4791;
    static final int MAD_SIZE = 256;
    private static final int PCAP_MAGIC = 0xa1b2c3d4;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int UD_SEND_ONLY = 0x64;
    private static final int GSI_QPN = 1;

    /**
     * One MAD, the GSI direction it travelled in and the IP source address (dotted IPv4 or IPv6 text);
     * {@code ipOffset} and {@code icrcOffset} place its IP header and ICRC in {@code frameBytes}.
     */
    record Mad(int frame, int sourceQpn, int destinationQpn, byte[] bytes, String source, byte[] frameBytes, int ipOffset,
        int icrcOffset, boolean ipv6)
    {
    }

    private RoceMadFrames()
    {
    }

    static List<Mad> read(final Path pcap) throws IOException
    {
        final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(pcap)).order(ByteOrder.LITTLE_ENDIAN);
        if (file.remaining() < 24 || file.getInt(0) != PCAP_MAGIC)
        {
            throw new IOException(pcap + ": not a little-endian classic pcap (magic a1b2c3d4)");
        }
        if (file.getInt(20) != LINKTYPE_ETHERNET)
        {
            throw new IOException(pcap + ": link type " + file.getInt(20) + ", not Ethernet");
        }
        final List<Mad> mads = new ArrayList<>();
        int position = 24;
        int frame = 0;
        while (position + 16 <= file.limit())
        {
            final int captured = file.getInt(position + 8);
            final int start = position + 16;
            frame++;
            mad(file.duplicate().order(ByteOrder.BIG_ENDIAN), start, captured, frame, mads);
            position = start + captured;
        }
        return mads;
    }

    private static void mad(final ByteBuffer frame, final int start, final int length, final int number, final List<Mad> mads)
    {
        final int etherType = frame.getShort(start + 12) & 0xffff;
        final int ip = start + 14;
        final int udp;
        final byte[] source;
        if (etherType == 0x0800 && frame.get(ip + 9) == 17)
        {
            udp = ip + (frame.get(ip) & 0x0f) * 4;
            source = new byte[4];
            frame.get(ip + 12, source);
        }
        else if (etherType == 0x86dd && frame.get(ip + 6) == 17)
        {
            udp = ip + 40;
            source = new byte[16];
            frame.get(ip + 8, source);
        }
        else
        {
            return;
        }
        final int bth = udp + 8;
        final int mad = bth + 12 + 8;
        if ((frame.getShort(udp + 2) & 0xffff) != ROCE_V2_PORT || mad + MAD_SIZE > start + length
            || (frame.get(bth) & 0xff) != UD_SEND_ONLY)
        {
            return;
        }
        final int destinationQpn = frame.getInt(bth + 4) & 0xff_ffff;
        final int sourceQpn = frame.getInt(bth + 12 + 4) & 0xff_ffff;
        if (destinationQpn != GSI_QPN && sourceQpn != GSI_QPN)
        {
            return;
        }
        final byte[] bytes = new byte[MAD_SIZE];
        frame.get(mad, bytes);
        final byte[] whole = new byte[length];
        frame.get(start, whole);
        try
        {
            mads.add(new Mad(number, sourceQpn, destinationQpn, bytes, java.net.InetAddress.getByAddress(source).getHostAddress(),
                whole, ip - start, mad + MAD_SIZE - start, etherType == 0x86dd));
        }
        catch (final java.net.UnknownHostException ex)
        {
            throw new IllegalStateException("an IP address of " + source.length + " bytes", ex);
        }
    }
}

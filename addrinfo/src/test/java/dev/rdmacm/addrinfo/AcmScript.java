package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.sa.PathRecordLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * What the scripted ACM answers to every RESOLVE, on both sides of a conformance test: one path
 * ({@link #pathData()}) and a source address of the destination's family (10.0.0.1, or fd00::1 for an
 * IPv6 destination). {@link ScriptedAcmServer} sends it to librdmacm over the ACM socket;
 * {@link #answer(AcmQuery)} gives it to our side.
 */
final class AcmScript
{
    static final int PATH_FLAGS = 0x2b;
    static final Ipv4Sockaddr IPV4_SOURCE = new Ipv4Sockaddr(0x0A00_0001, 0);
    static final Ipv6Sockaddr IPV6_SOURCE = Ipv6Sockaddr.parse("[fd00::1]", "test");

    private AcmScript()
    {
    }

    /** The route as librdmacm keeps it: an {@code ibv_path_data} with flags 0x2b, as ibacm sets them. */
    static byte[] pathData()
    {
        final byte[] route = new byte[IbvPathData.LENGTH];
        final IbvPathData pathData = new IbvPathData().wrap(new UnsafeBuffer(route), 0).flags(PATH_FLAGS);
        pathData.path().dgid(Gid.parse("fe80::3")).sgid(Gid.parse("fe80::2")).flowLabel(0x123).hopLimit(0x40).pKey(0x8001)
            .dlid(3).slid(2).reversible(true).numbPath(1);
        // the 4 bits above the flow label are reserved in ibv_path_record; librdmacm shifts them into
        // sib_flowinfo, so set them to see that we do too
        final UnsafeBuffer buffer = new UnsafeBuffer(route);
        final int word = IbvPathData.PATH_OFFSET + PathRecordLayout.FLOW_LABEL_HOP_LIMIT_OFFSET;
        buffer.putInt(word, buffer.getInt(word, ByteOrder.BIG_ENDIAN) | 0xA000_0000, ByteOrder.BIG_ENDIAN);
        return route;
    }

    static AcmAnswer answer(final AcmQuery query)
    {
        return new AcmAnswer(pathData(), query.destination() instanceof Ipv6Sockaddr ? IPV6_SOURCE : IPV4_SOURCE);
    }
}

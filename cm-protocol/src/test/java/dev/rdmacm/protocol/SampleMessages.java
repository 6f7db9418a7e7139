package dev.rdmacm.protocol;

import dev.rdmacm.protocol.capture.DatagramExtendedTransportHeader;
import dev.rdmacm.protocol.capture.UdMadPacket;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * One encoded message of every type this module writes, each as a 256-byte MAD: the inputs of the
 * tshark conformance test and the seeds of the decoder fuzz test.
 */
public final class SampleMessages
{
    /** The SA's and the CM's LID in the samples; the requester's is {@link #CLIENT_LID}. */
    public static final int SERVER_LID = 1;
    public static final int CLIENT_LID = 4;

    private SampleMessages()
    {
    }

    /** A named MAD. */
    public record Sample(String name, UnsafeBuffer mad)
    {
    }

    public static List<Sample> all()
    {
        final List<Sample> samples = new ArrayList<>();
        samples.add(new Sample("MAD header of an SA Get(PathRecord)", madHeaderOnly()));
        return samples;
    }

    /** Every sample framed as a UD packet from the client's QP1 to the server's QP1, no GRH. */
    public static List<UnsafeBuffer> frames()
    {
        final List<UnsafeBuffer> frames = new ArrayList<>();
        for (final Sample sample : all())
        {
            frames.add(frame(sample.mad(), CLIENT_LID, SERVER_LID));
        }
        return frames;
    }

    public static UnsafeBuffer frame(final UnsafeBuffer mad, final int slid, final int dlid)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[UdMadPacket.LOCAL_FRAME_LENGTH]);
        final UdMadPacket packet = new UdMadPacket().wrapForFraming(frame, 0, false);
        packet.lrh().slid(slid).dlid(dlid);
        packet.bth().pkey(0xffff).destQp(1);
        packet.deth().qkey(DatagramExtendedTransportHeader.GSI_QKEY).sourceQp(1);
        frame.putBytes(packet.madOffset(), mad, 0, MadHeader.MAD_SIZE);
        return frame;
    }

    private static UnsafeBuffer madHeaderOnly()
    {
        final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        new MadHeader().wrap(mad, 0).baseVersion(1).mgmtClass(0x03).classVersion(2).method(0x01)
            .transactionId(0x0102_0304_0506_0708L).attributeId(0x0035);
        return mad;
    }
}

package dev.rdmacm.protocol;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.capture.UdMadPacket;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One encoded message of every type this module writes, each a 256-byte MAD, with what tshark must
 * decode from it: the inputs of the tshark conformance test and the seeds of the decoder fuzz test.
 * <p>
 * The expected values are written out by hand from the values encoded, in tshark's notation (hex
 * fields as {@code 0x} and the field's full width, GIDs as IPv6 text). Where tshark 4.0's dissector is
 * known to be wrong or silent (shared/reference/tshark-infiniband.md), the sample lists the MAD bytes
 * instead, at their offset in the MAD, as the IBA tables place them.
 */
public final class SampleMessages
{
    /** The SA's and the passive CM's LID; the requester's is {@link #CLIENT_LID}. */
    public static final int SERVER_LID = 1;
    public static final int CLIENT_LID = 4;

    /** The two ports' GIDs in the samples, and how tshark prints them. */
    static final long GID_PREFIX = 0xfe80_0000_0000_0000L;
    static final long SGID_INTERFACE = 0x0002_c903_0000_0001L;
    static final long DGID_INTERFACE = 0x0002_c903_0000_0002L;
    static final String SGID_TEXT = "fe80::2:c903:0:1";
    static final String DGID_TEXT = "fe80::2:c903:0:2";

    private SampleMessages()
    {
    }

    /**
     * A named MAD, which way it travels, the tshark fields it must decode to and the raw MAD bytes
     * (offset in the MAD to hex) to compare where tshark cannot be trusted.
     */
    public record Sample(
        String name,
        CaptureDirection direction,
        UnsafeBuffer mad,
        Map<String, List<String>> tsharkFields,
        Map<Integer, String> rawBytes)
    {
    }

    public static List<Sample> all()
    {
        final List<Sample> samples = new ArrayList<>();
        samples.addAll(SaSamples.all());
        samples.addAll(CmSamples.all());
        return samples;
    }

    /** Every sample framed as a UD packet between the two QP1s, no GRH. */
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
        packet.deth().qkey(Gsi.QKEY).sourceQp(1);
        frame.putBytes(packet.madOffset(), mad, 0, MadHeader.MAD_SIZE);
        return frame;
    }

    static UnsafeBuffer newMad()
    {
        return new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    }
}

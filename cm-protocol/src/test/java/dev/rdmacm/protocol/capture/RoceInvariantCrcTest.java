package dev.rdmacm.protocol.capture;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The ICRC against the real rxe: {@code rxe-wire-cm-req.pcap} holds three CM REQs that the 6.1 kernel's
 * rdma_cm sent through rxe in the kernel guest ({@code dumpcap -P} on its netdev, SilentPeerAcrossTheWire's
 * capture: three retries of one REQ, so with different IP identifications, PSNs and ICRCs). Our ICRC over
 * each frame must be the one rxe computed and put on the wire.
 */
class RoceInvariantCrcTest
{
    private static final String CAPTURE = "rxe-wire-cm-req.pcap";

    @Test
    @Timeout(10)
    void shouldComputeTheIcrcRxePutOnEveryFrame() throws IOException
    {
        final List<UnsafeBuffer> frames = framesOf(CAPTURE);
        assertEquals(3, frames.size());
        final RoceInvariantCrc icrc = new RoceInvariantCrc();
        final List<String> expected = new ArrayList<>();
        final List<String> computed = new ArrayList<>();
        for (final UnsafeBuffer frame : frames)
        {
            assertEquals(RoceV2MadFrame.IPV4_FRAME_LENGTH, frame.capacity());
            final int icrcOffset = frame.capacity() - RoceInvariantCrc.LENGTH;
            expected.add(Integer.toHexString(RoceInvariantCrc.stored(frame, icrcOffset)));
            computed.add(Integer.toHexString(icrc.compute(frame, RoceV2MadFrame.IP_OFFSET, icrcOffset, false)));
        }
        assertEquals(expected, computed);
    }

    /** The frames of a classic little-endian pcap on the class path. */
    static List<UnsafeBuffer> framesOf(final String resource) throws IOException
    {
        try (InputStream in = RoceInvariantCrcTest.class.getResourceAsStream(resource))
        {
            assertNotNull(in, resource);
            return frames(in.readAllBytes());
        }
    }

    /** The frames of a classic little-endian pcap of Ethernet frames. */
    static List<UnsafeBuffer> frames(final byte[] file)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(file);
        assertEquals(PcapFormat.PCAP_MAGIC_MICROSECONDS, buffer.getInt(0, ByteOrder.LITTLE_ENDIAN));
        assertEquals(PcapFormat.LINKTYPE_ETHERNET, buffer.getInt(PcapFormat.PCAP_NETWORK_OFFSET, ByteOrder.LITTLE_ENDIAN));
        final List<UnsafeBuffer> frames = new ArrayList<>();
        int position = PcapFormat.PCAP_HEADER_LENGTH;
        while (position + PcapFormat.RECORD_HEADER_LENGTH <= file.length)
        {
            final int length = buffer.getInt(position + PcapFormat.RECORD_INCLUDED_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final byte[] frame = new byte[length];
            buffer.getBytes(position + PcapFormat.RECORD_HEADER_LENGTH, frame);
            frames.add(new UnsafeBuffer(frame));
            position += PcapFormat.RECORD_HEADER_LENGTH + length;
        }
        return frames;
    }
}

package dev.rdmacm.conformance;

import dev.rdmacm.protocol.capture.RoceInvariantCrc;
import dev.rdmacm.protocol.cm.CmAttribute;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The wire as the oracle of {@code rdmacm rping --pcap}: the CM MADs of our capture against those that
 * {@code dumpcap} recorded on the NIC in the same run, in order, byte for byte in the MAD. One
 * difference is the kernel's and expected: umad overwrites the high 32 bits of the TransactionID
 * (MAD bytes 8-11) of every MAD we send with its agent's {@code hi_tid}, which it tells no one; there
 * our capture has the zeros the CM wrote, and the wire one value for all our MADs.
 */
final class CmMadsAgainstTheWire
{
    private static final int CM_CLASS = 0x07;
    private static final int TID_HIGH_OFFSET = 8;
    private static final int TID_HIGH_LENGTH = 4;

    private CmMadsAgainstTheWire()
    {
    }

    /** Every way our capture's CM MADs differ from the wire's; their attribute names go to {@code attributes}. */
    static List<String> differences(final Path ours, final Path wire, final String ourAddress, final List<String> attributes)
        throws IOException
    {
        final List<RoceMadFrames.Mad> recorded = cmMads(ours);
        final List<RoceMadFrames.Mad> carried = cmMads(wire);
        recorded.forEach(mad -> attributes.add(name(mad)));
        final List<String> differences = new ArrayList<>();
        if (recorded.size() != carried.size())
        {
            differences.add(recorded.size() + " CM MADs in ours " + attributes + ", " + carried.size() + " on the wire "
                + carried.stream().map(CmMadsAgainstTheWire::name).toList());
            return differences;
        }
        final Set<String> hiTids = new HashSet<>();
        for (int i = 0; i < recorded.size(); i++)
        {
            final RoceMadFrames.Mad mine = recorded.get(i);
            final RoceMadFrames.Mad theirs = carried.get(i);
            final String what = "MAD " + (i + 1) + " (" + name(mine) + " from " + mine.source() + ")";
            if (!mine.source().equals(theirs.source()))
            {
                differences.add(what + ": on the wire from " + theirs.source());
                continue;
            }
            final byte[] expected = mine.bytes().clone();
            if (mine.source().equals(ourAddress))
            {
                final byte[] hiTid = new byte[TID_HIGH_LENGTH];
                System.arraycopy(theirs.bytes(), TID_HIGH_OFFSET, hiTid, 0, TID_HIGH_LENGTH);
                hiTids.add(HexFormat.of().formatHex(hiTid));
                if (!HexFormat.of().formatHex(expected, TID_HIGH_OFFSET, TID_HIGH_OFFSET + TID_HIGH_LENGTH).equals("00000000"))
                {
                    differences.add(what + ": the TID's high 32 bits are not the CM's 0");
                }
                System.arraycopy(hiTid, 0, expected, TID_HIGH_OFFSET, TID_HIGH_LENGTH);
            }
            for (int b = 0; b < expected.length; b++)
            {
                if (expected[b] != theirs.bytes()[b])
                {
                    differences.add(what + ": byte " + b + " ours 0x" + HexFormat.of().toHexDigits(expected[b]) + ", wire 0x"
                        + HexFormat.of().toHexDigits(theirs.bytes()[b]));
                }
            }
        }
        if (hiTids.size() > 1)
        {
            differences.add("our MADs carried " + hiTids.size() + " different TID high halves on the wire: " + hiTids);
        }
        return differences;
    }

    /** Every CM frame of {@code pcap} whose ICRC is not the one {@link RoceInvariantCrc} computes. */
    static List<String> icrcMismatches(final Path pcap) throws IOException
    {
        final RoceInvariantCrc icrc = new RoceInvariantCrc();
        final List<String> mismatches = new ArrayList<>();
        for (final RoceMadFrames.Mad mad : cmMads(pcap))
        {
            final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.wrap(mad.frameBytes()));
            final int stored = RoceInvariantCrc.stored(frame, mad.icrcOffset());
            final int computed = icrc.compute(frame, mad.ipOffset(), mad.icrcOffset(), mad.ipv6());
            if (stored != computed)
            {
                mismatches.add("frame " + mad.frame() + " (" + name(mad) + "): ICRC " + Integer.toHexString(stored)
                    + ", computed " + Integer.toHexString(computed));
            }
        }
        return mismatches;
    }

    private static List<RoceMadFrames.Mad> cmMads(final Path pcap) throws IOException
    {
        return RoceMadFrames.read(pcap).stream().filter(mad -> (mad.bytes()[1] & 0xff) == CM_CLASS).toList();
    }

    private static String name(final RoceMadFrames.Mad mad)
    {
        final CmAttribute attribute = CmAttribute.fromId((mad.bytes()[16] & 0xff) << 8 | mad.bytes()[17] & 0xff);
        return attribute == null ? "attribute 0x" + HexFormat.of().toHexDigits((short)((mad.bytes()[16] & 0xff) << 8
            | mad.bytes()[17] & 0xff)) : attribute.wireName();
    }
}

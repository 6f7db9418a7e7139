package dev.rdmacm.protocol.sa;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the SA PathRecord attribute (IBA 15.2.5.16, attribute ID 0x0035), 64 bytes, big-endian.
 * The layout is drawn in {@link PathRecordLayout} and {@link PathProperties}; this class adds the one
 * bit the SA defines there and {@code ibv_path_record} does not, RawTraffic (bit 31 of byte 44).
 * Component-mask bits are in {@link PathRecordComponentMask}.
 */
public final class PathRecord extends PathRecordLayout<PathRecord>
{
    /** Wraps a record for reading, checking that all 64 bytes are present. */
    public PathRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("PathRecord", buffer, offset, length, LENGTH);
        return this;
    }

    public PathRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Set for raw (non-IBA transport) traffic: such a path has no GRH fields. */
    public boolean rawTraffic()
    {
        return rawTrafficBit();
    }

    public PathRecord rawTraffic(final boolean value)
    {
        rawTrafficBit(value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "PathRecord{unwrapped}";
        }
        final StringBuilder text = new StringBuilder(512).append("PathRecord{");
        appendFields(text);
        return text.append(", RawTraffic=").append(rawTraffic() ? 1 : 0).append('}').toString();
    }
}

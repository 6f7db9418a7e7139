package dev.rdmacm.protocol.cm;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A scalar field of a CM message as the Java flyweight sees it (its offset constant, mask and shift,
 * getter and setter), paired with the kernel's name for the same field so that a C program can place
 * the same value where the kernel says it goes.
 *
 * @param kernelName the name in {@code ibta-vol1-c12-fields.h}, e.g. {@code CM_REQ_LOCAL_QPN}.
 * @param offset     the Java {@code *_OFFSET} constant.
 * @param bits       the field's width.
 * @param mask       the Java {@code *_MASK} constant, 0 for a field made of whole bytes.
 * @param shift      the Java {@code *_SHIFT} constant.
 * @param max        the largest value the field may hold (less than its width allows for lengths).
 * @param ownSetter   whether the flyweight has a setter for exactly this field, which must then refuse
 *                   values out of range; false for the kernel's parts of a vendor ID that Java sets whole.
 */
record CmField<M>(String kernelName, int offset, int bits, int mask, int shift, long max,
                  ToLongFunction<M> getter, ObjLongConsumer<M> setter, boolean ownSetter)
{
    static <M> CmField<M> bytes(final String kernelName, final int offset, final int bits,
        final ToLongFunction<M> getter, final ObjLongConsumer<M> setter)
    {
        return new CmField<>(kernelName, offset, bits, 0, 0, bits == 64 ? -1L : (1L << bits) - 1, getter, setter, true);
    }

    static <M> CmField<M> bitField(final String kernelName, final int offset, final int mask, final int shift,
        final ToLongFunction<M> getter, final ObjLongConsumer<M> setter)
    {
        final int bits = Integer.bitCount(mask);
        return new CmField<>(kernelName, offset, bits, mask, shift, (1L << bits) - 1, getter, setter, true);
    }

    static <M> CmField<M> flag(final String kernelName, final int offset, final int mask, final int shift,
        final Predicate<M> getter, final BiConsumer<M, Boolean> setter)
    {
        return bitField(kernelName, offset, mask, shift, m -> getter.test(m) ? 1 : 0, (m, v) -> setter.accept(m, v != 0));
    }

    /** The two communication IDs every connection message starts with, e.g. CM_MRA_LOCAL_COMM_ID. */
    static <M extends ConnectionMessage<M>> List<CmField<M>> commIds(final String kernelPrefix)
    {
        return List.of(
            bytes(kernelPrefix + "_LOCAL_COMM_ID", ConnectionMessage.LOCAL_COMM_ID_OFFSET, 32,
                ConnectionMessage::localCommId, ConnectionMessage::localCommId),
            bytes(kernelPrefix + "_REMOTE_COMM_ID", ConnectionMessage.REMOTE_COMM_ID_OFFSET, 32,
                ConnectionMessage::remoteCommId, ConnectionMessage::remoteCommId));
    }

    CmField<M> withMax(final long newMax)
    {
        return new CmField<>(kernelName, offset, bits, mask, shift, newMax, getter, setter, ownSetter);
    }

    /** A kernel field that is a byte range of a wider Java field (the REP and SIDR_REP vendor IDs). */
    static <M> CmField<M> part(final String kernelName, final int offset, final int bits,
        final ToLongFunction<M> getter, final ObjLongConsumer<M> setter)
    {
        return new CmField<>(kernelName, offset, bits, 0, 0, (1L << bits) - 1, getter, setter, false);
    }

    /**
     * Where the Java constants put the field, in the kernel table's terms: byte, first bit counted
     * from that byte's most significant bit, width.
     */
    String javaPosition()
    {
        if (mask == 0)
        {
            return offset + " 0 " + bits;
        }
        final int containerBits = (mask & ~0xff) != 0 ? 32 : 8;
        final long expectedMask = ((1L << bits) - 1) << shift;
        if ((mask & 0xffff_ffffL) != expectedMask)
        {
            return "mask 0x" + Integer.toHexString(mask) + " is not " + bits + " contiguous bits at shift " + shift;
        }
        final int first = containerBits - shift - bits;
        return (offset + first / 8) + " " + (first % 8) + " " + bits;
    }

    long get(final M message)
    {
        return getter.applyAsLong(message);
    }

    void set(final M message, final long value)
    {
        setter.accept(message, value);
    }
}

package dev.rdmacm.protocol.cm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A byte-block field of a CM message (GID, ARI, additional information, private data) as the Java
 * flyweight sees it, paired with the kernel's name for it.
 *
 * @param kernelName the name in {@code ibta-vol1-c12-fields.h}, e.g. {@code CM_REQ_PRIVATE_DATA}.
 * @param offset     the Java {@code *_OFFSET} constant.
 * @param length     the Java length constant.
 */
record CmBlock<M>(String kernelName, int offset, int length, Function<M, byte[]> getter, BiConsumer<M, byte[]> setter)
{
    /** The private data that ends every message, e.g. CM_REQ_PRIVATE_DATA. */
    static <M extends CmMessage<M>> CmBlock<M> privateData(final String kernelName, final int offset, final int length)
    {
        return new CmBlock<>(kernelName, offset, length, CmMessage::privateData,
            (m, b) -> m.privateData(new UnsafeBuffer(b), 0, b.length));
    }

    /** Copies what an info getter (getAri, getAdditionalInfo) copies: only the meaningful bytes. */
    static <M> CmBlock<M> info(final String kernelName, final int offset, final int capacity,
        final InfoWriter<M> writer, final InfoReader<M> reader)
    {
        return new CmBlock<>(kernelName, offset, capacity,
            m ->
            {
                final UnsafeBuffer copy = new UnsafeBuffer(new byte[capacity]);
                return Arrays.copyOf(copy.byteArray(), reader.read(m, copy, 0));
            },
            (m, b) -> writer.write(m, new UnsafeBuffer(b), 0, b.length));
    }

    interface InfoWriter<M>
    {
        void write(M message, DirectBuffer source, int offset, int length);
    }

    interface InfoReader<M>
    {
        int read(M message, MutableDirectBuffer destination, int offset);
    }

    String javaPosition()
    {
        return offset + " " + length;
    }
}

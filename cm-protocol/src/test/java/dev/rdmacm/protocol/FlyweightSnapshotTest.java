package dev.rdmacm.protocol;

import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.sa.PathRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The accessors of {@link Flyweight} read and write the memory a buffer wrapped at the time of the
 * flyweight's wrap (see its class comment): heap and off-heap alike, bounds-checked like Agrona's.
 */
class FlyweightSnapshotTest
{
    @Test
    void shouldWriteTheSameBytesToOffHeapMemoryAsToAnArray()
    {
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[PathRecord.LENGTH + 8]);
        final UnsafeBuffer offHeap = new UnsafeBuffer(ByteBuffer.allocateDirect(PathRecord.LENGTH + 8));

        encode(new PathRecord().wrap(heap, 8));
        encode(new PathRecord().wrap(offHeap, 8));

        final byte[] fromHeap = new byte[PathRecord.LENGTH + 8];
        final byte[] fromOffHeap = new byte[PathRecord.LENGTH + 8];
        heap.getBytes(0, fromHeap);
        offHeap.getBytes(0, fromOffHeap);
        assertArrayEquals(fromHeap, fromOffHeap);
        assertEquals(0x12345, new PathRecord().wrap(offHeap, 8, PathRecord.LENGTH).flowLabel());
    }

    @Test
    void shouldRefuseAWritePastTheEndOfTheBuffer()
    {
        final MadHeader header = new MadHeader().wrap(new UnsafeBuffer(new byte[MadHeader.LENGTH - 2]), 0);

        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class,
            () -> header.attributeModifier(1));

        assertEquals("MadHeader: 4 bytes at index 20 are outside a buffer of 22 bytes", ex.getMessage());
    }

    @Test
    void shouldRefuseAnAccessBeforeAnyWrap()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> new MadHeader().method());

        assertEquals("MadHeader is not wrapped", ex.getMessage());
    }

    @Test
    void shouldKeepReadingTheMemoryItWasWrappedOverUntilWrappedAgain()
    {
        final byte[] first = new byte[MadHeader.LENGTH];
        final byte[] second = new byte[MadHeader.LENGTH];
        first[MadHeader.METHOD_OFFSET] = 1;
        second[MadHeader.METHOD_OFFSET] = 2;
        final UnsafeBuffer buffer = new UnsafeBuffer(first);
        final MadHeader header = new MadHeader().wrap(buffer, 0, MadHeader.LENGTH);

        buffer.wrap(second);

        assertEquals(1, header.method());
        assertEquals(2, header.wrap(buffer, 0, MadHeader.LENGTH).method());
    }

    private static void encode(final PathRecord record)
    {
        record.clear().serviceId(0x1122_3344_5566_7788L).dgid(0xfe80_0000_0000_0000L, 2).slid(1).dlid(2)
            .flowLabel(0x12345).hopLimit(64).tClass(0x20).reversible(true).numbPath(1).pKey(0xffff).sl(3);
    }
}

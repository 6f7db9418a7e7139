package dev.rdmacm.ibcm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Timeout(10)
class CommIdAllocatorTest
{
    @Test
    void shouldXorTheByteReversedIndexWithTheOperandAsTheKernelDoesOnLittleEndian()
    {
        // index 0, 1, 2 on x86: __be32 local_id = (__force __be32)id ^ operand, written by be32_to_cpu
        final CommIdAllocator ids = new CommIdAllocator(0x1234_5678);

        assertEquals(0x1234_5678L, ids.allocate());
        assertEquals(0x1334_5678L, ids.allocate());
        assertEquals(0x1034_5678L, ids.allocate());
    }

    @Test
    void shouldNotReuseAReleasedIdBeforeTheCycleComesRound()
    {
        final CommIdAllocator ids = new CommIdAllocator(0);
        final long first = ids.allocate();
        ids.allocate();

        ids.release(first);

        assertNotEquals(first, ids.allocate());
    }

    @Test
    void shouldReadTheIndexBackFromTheWire()
    {
        final CommIdAllocator ids = new CommIdAllocator(0xcafe_f00d);
        ids.allocate();

        assertEquals(1, ids.fromWire(ids.allocate()));
    }
}

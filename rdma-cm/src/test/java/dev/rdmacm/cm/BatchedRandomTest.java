package dev.rdmacm.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class BatchedRandomTest
{
    private static final byte[] SEED = {1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void shouldHandOutTheSourcesBytesInOrderAndRefillWhenABatchIsSpent() throws NoSuchAlgorithmException
    {
        final BatchedRandom batched = new BatchedRandom(seeded());
        final SecureRandom same = seeded();
        final ByteBuffer first = batch(same);
        final ByteBuffer second = batch(same);

        for (int i = 0; i < BatchedRandom.BATCH / Integer.BYTES - 1; i++)
        {
            assertEquals(first.getInt(), batched.nextInt());
        }
        // four bytes are left: a long does not fit, so it comes from the next fill
        assertEquals(second.getLong(), batched.nextLong());
        assertEquals(second.getInt(), batched.nextInt());
    }

    private static SecureRandom seeded() throws NoSuchAlgorithmException
    {
        // SHA1PRNG seeded before its first use repeats itself: the same bytes for both sides of the comparison
        final SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
        random.setSeed(SEED);
        return random;
    }

    private static ByteBuffer batch(final SecureRandom random)
    {
        final byte[] bytes = new byte[BatchedRandom.BATCH];
        random.nextBytes(bytes);
        return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    }
}

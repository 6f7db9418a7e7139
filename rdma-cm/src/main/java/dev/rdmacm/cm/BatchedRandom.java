package dev.rdmacm.cm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * Random numbers as the kernel's {@code get_random_u32} hands them out (starting PSNs, rdma_cm's
 * {@code id_priv->seq_num}; the first port {@code cma_alloc_any_port} tries): from a cryptographic generator,
 * drawn in batches, as the kernel keeps a per-CPU batch of ChaCha output. One {@link SecureRandom} fill of
 * {@link #BATCH} bytes serves 1,024 values, where a {@code nextInt} of its own cost a lock and, with
 * NativePRNG, a read of {@code /dev/urandom}. Not thread-safe: one owner (the conductor, or callers under
 * the {@link RdmaCm}'s lock).
 */
final class BatchedRandom implements RandomGenerator
{
    static final int BATCH = 4096;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final SecureRandom source;
    private final byte[] batch = new byte[BATCH];
    private int next = BATCH;

    BatchedRandom(final SecureRandom source)
    {
        this.source = source;
    }

    @Override
    public int nextInt()
    {
        final int at = take(Integer.BYTES);
        return (int)INT.get(batch, at);
    }

    @Override
    public long nextLong()
    {
        final int at = take(Long.BYTES);
        return (long)LONG.get(batch, at);
    }

    private int take(final int bytes)
    {
        if (next + bytes > BATCH)
        {
            source.nextBytes(batch);
            next = 0;
        }
        final int at = next;
        next += bytes;
        return at;
    }
}

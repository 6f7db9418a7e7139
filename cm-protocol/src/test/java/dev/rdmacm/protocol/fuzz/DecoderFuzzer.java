package dev.rdmacm.protocol.fuzz;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.SampleMessages;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.DynamicTest;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The decoder fuzz, shared through cm-protocol's test jar: feeds every entry point of the decoders it is
 * given random bytes and mutations of real messages ({@link SampleMessages#frames()}), and checks that
 * the only exception that ever escapes {@code wrap}, a getter or {@code toString} is
 * {@link MalformedMessageException}. The buffer ends exactly where the message does, so a read past the
 * message is an {@link IndexOutOfBoundsException} from Agrona's bounds check and fails the test; one
 * case in sixteen passes a negative offset or a length the buffer does not hold.
 * <p>
 * {@value #DEFAULT_ITERATIONS} cases per entry point. A long run (see docs/decisions.md):
 * {@code -Drdmacm.fuzz.iterations=5000000 -Drdmacm.fuzz.seed=N}. Used by cm-protocol's
 * {@code DecoderFuzzTest} and by netlink's {@code NetlinkFramingFuzzTest}.
 */
public final class DecoderFuzzer
{
    public static final int DEFAULT_ITERATIONS = 20_000;
    private static final int ITERATIONS = Integer.getInteger("rdmacm.fuzz.iterations", DEFAULT_ITERATIONS);
    private static final long SEED = Long.getLong("rdmacm.fuzz.seed", 0x5eed_1b_cafeL);
    private static final Duration TIME_LIMIT =
        Duration.ofSeconds(Long.getLong("rdmacm.fuzz.seconds", Math.max(60, ITERATIONS / 10_000L)));

    /** Offsets in a sample UD frame where a decoder may start: each header, the MAD and its parts. */
    private static final int[] CANDIDATE_OFFSETS = {0, 8, 20, 28, 28 + 24, 28 + 36, 28 + 56,
        28 + 24 + 16, 28 + 24 + 140}; // the last two: the private data of a SIDR_REQ and of a REQ
    private static final int MAX_OFFSET = 16;
    private static final int MAX_RANDOM_LENGTH = 400;
    private static final int[] INTERESTING_BYTES = {0x00, 0xff, 0x7f, 0x80, 0x01, 0xfe, 0x3f, 0x40};

    private final Map<String, Set<String>> contractExceptions;

    /**
     * @param contractExceptions by decoder class name, the getters whose documented contract is an
     *                           IllegalStateException, not a decoding result: not called.
     */
    public DecoderFuzzer(final Map<String, Set<String>> contractExceptions)
    {
        this.contractExceptions = contractExceptions;
    }

    /** One dynamic test per entry point of each decoder. */
    public Stream<DynamicTest> tests(final List<Class<?>> decoders)
    {
        final List<UnsafeBuffer> samples = SampleMessages.frames();
        return decoders.stream()
            .flatMap(type -> DecoderDiscovery.wrapMethods(type).stream().map(wrap -> DynamicTest.dynamicTest(
                type.getSimpleName() + "." + wrap.getName(),
                () -> assertTimeoutPreemptively(TIME_LIMIT, () -> fuzz(type, wrap, samples)))));
    }

    /** The simple names of the decoders, bar {@code notInAMad}, whose first entry point no sample seeds. */
    public List<String> unseeded(final List<Class<?>> decoders, final Set<String> notInAMad)
        throws ReflectiveOperationException
    {
        final List<UnsafeBuffer> samples = SampleMessages.frames();
        final List<String> unseeded = new ArrayList<>();
        for (final Class<?> type : decoders)
        {
            if (!notInAMad.contains(type.getSimpleName()) &&
                new Decoder(type, DecoderDiscovery.wrapMethods(type).get(0)).seedsFrom(samples).isEmpty())
            {
                unseeded.add(type.getSimpleName());
            }
        }
        return unseeded;
    }

    private void fuzz(final Class<?> type, final Method wrap, final List<UnsafeBuffer> samples)
        throws Exception
    {
        final Decoder decoder = new Decoder(type, wrap);
        final List<byte[]> seeds = decoder.seedsFrom(samples);
        final long seed = SEED ^ (type.getName() + "." + wrap.getName()).hashCode();
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] bytes = new byte[MAX_OFFSET + Math.max(MAX_RANDOM_LENGTH, 512)];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        for (int i = 0; i < ITERATIONS; i++)
        {
            final int offset = random.nextInt(MAX_OFFSET + 1);
            final int length;
            Arrays.fill(bytes, (byte)0);
            if (seeds.isEmpty() || (i & 3) == 0)
            {
                length = random.nextInt(MAX_RANDOM_LENGTH + 1);
                fillRandom(random, bytes, offset, length);
            }
            else
            {
                final byte[] seedBytes = seeds.get(random.nextInt(seeds.size()));
                System.arraycopy(seedBytes, 0, bytes, offset, seedBytes.length);
                mutate(random, bytes, offset, seedBytes.length);
                length = random.nextInt(4) == 0 ? random.nextInt(seedBytes.length + 1) : seedBytes.length;
            }
            // the buffer ends where the message ends: a read past it is an IndexOutOfBoundsException
            buffer.wrap(bytes, 0, offset + length);
            // now and then a caller's mistake: a negative offset, or a length the buffer does not hold
            final int misuse = random.nextInt(32);
            final int callOffset = misuse == 0 ? -1 - random.nextInt(4) : offset;
            final int callLength = misuse == 1 ? length + 1 + random.nextInt(8) : length;
            final Throwable failure = decoder.decode(buffer, callOffset, callLength);
            if (failure != null && !(failure instanceof MalformedMessageException))
            {
                throw new AssertionError(type.getName() + "." + wrap.getName() + " threw " + failure + " (case " + i +
                    ", seed " + seed + ", offset " + callOffset + ", length " + callLength + ", bytes " +
                    BitUtil.toHex(bytes, offset, length) + ")", failure);
            }
        }
    }

    private static void fillRandom(final SplittableRandom random, final byte[] bytes, final int offset, final int length)
    {
        final int style = random.nextInt(4);
        for (int i = offset; i < offset + length; i++)
        {
            bytes[i] = switch (style)
            {
                case 0 -> (byte)0xff;
                case 1 -> (byte)INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                default -> (byte)random.nextInt(256);
            };
        }
    }

    private static void mutate(final SplittableRandom random, final byte[] bytes, final int offset, final int length)
    {
        final int mutations = 1 + random.nextInt(8);
        for (int m = 0; m < mutations && length > 0; m++)
        {
            final int at = offset + random.nextInt(length);
            switch (random.nextInt(4))
            {
                case 0 -> bytes[at] ^= (byte)(1 << random.nextInt(8));
                case 1 -> bytes[at] = (byte)INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                case 2 -> bytes[at] = (byte)random.nextInt(256);
                default -> Arrays.fill(bytes, at, Math.min(offset + length, at + 1 + random.nextInt(8)),
                    (byte)(random.nextBoolean() ? 0xff : 0x00));
            }
        }
    }

    /** One decoder, driven by reflection: wrap, every getter (and the toString of what it returns), toString. */
    private final class Decoder
    {
        private static final MethodType WRAP_TYPE =
            MethodType.methodType(Object.class, Object.class, DirectBuffer.class, int.class, int.class);
        private static final MethodType GETTER_TYPE = MethodType.methodType(Object.class, Object.class);

        private final Object flyweight;
        // method handles rather than Method.invoke: no InvocationTargetException (and its stack trace) per case
        private final MethodHandle wrap;
        private final List<MethodHandle> getters = new ArrayList<>();

        Decoder(final Class<?> type, final Method wrapMethod) throws ReflectiveOperationException
        {
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            this.flyweight = type.getConstructor().newInstance();
            this.wrap = lookup.unreflect(wrapMethod).asType(WRAP_TYPE);
            final Set<String> skipped = contractExceptions.getOrDefault(type.getName(), Set.of());
            for (final Method getter : DecoderDiscovery.getters(type))
            {
                if (!skipped.contains(getter.getName()))
                {
                    getters.add(lookup.unreflect(getter).asType(GETTER_TYPE));
                }
            }
        }

        /** The sample slices this decoder wraps without complaint: the starting points for mutation. */
        List<byte[]> seedsFrom(final List<UnsafeBuffer> samples)
        {
            final List<byte[]> seeds = new ArrayList<>();
            for (final UnsafeBuffer sample : samples)
            {
                for (final int start : CANDIDATE_OFFSETS)
                {
                    final int length = sample.capacity() - start;
                    final UnsafeBuffer slice = new UnsafeBuffer(sample, start, length);
                    final Throwable outcome = decode(slice, 0, length);
                    if (outcome != null && !(outcome instanceof MalformedMessageException))
                    {
                        throw new AssertionError("an unmutated sample at offset " + start + " made " +
                            flyweight.getClass().getName() + " throw " + outcome, outcome);
                    }
                    if (wraps(slice, length))
                    {
                        final byte[] seed = new byte[length];
                        sample.getBytes(start, seed);
                        seeds.add(seed);
                    }
                }
            }
            return seeds;
        }

        private boolean wraps(final DirectBuffer buffer, final int length)
        {
            try
            {
                final Object wrapped = (Object)wrap.invokeExact(flyweight, buffer, 0, length);
                return wrapped != null;
            }
            catch (final Throwable ex)
            {
                return false;
            }
        }

        private Throwable checkToString()
        {
            flyweight.toString();
            return null;
        }

        /**
         * Decodes and reads everything. Returns null when all of it worked, the
         * {@link MalformedMessageException} when the bytes were rejected, or any other exception, which
         * is a bug.
         */
        Throwable decode(final DirectBuffer buffer, final int offset, final int length)
        {
            try
            {
                final Object wrapped = (Object)wrap.invokeExact(flyweight, buffer, offset, length);
                for (final MethodHandle getter : getters)
                {
                    final Object value = (Object)getter.invokeExact(flyweight);
                    if (value != null)
                    {
                        value.toString();
                    }
                }
                return wrapped == flyweight ? checkToString() : new AssertionError("wrap did not return this");
            }
            catch (final Throwable ex)
            {
                return ex;
            }
        }
    }
}

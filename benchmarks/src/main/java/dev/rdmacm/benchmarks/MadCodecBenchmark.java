package dev.rdmacm.benchmarks;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Encoding and decoding one MAD against the floor of any codec: copying the same 256 bytes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MadCodecBenchmark
{
    private final UnsafeBuffer source = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final UnsafeBuffer target = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final MadHeader header = new MadHeader();
    private long transactionId;

    @Setup
    public void setUp()
    {
        new MadHeader().wrap(source, 0).baseVersion(1).mgmtClass(3).classVersion(2).method(1)
            .transactionId(0x1234_5678L).attributeId(0x35);
    }

    /** The floor: a plain copy of the 256 bytes of a MAD. */
    @Benchmark
    public UnsafeBuffer copyMad()
    {
        target.putBytes(0, source, 0, MadHeader.MAD_SIZE);
        return target;
    }

    @Benchmark
    public UnsafeBuffer encodeMadHeader()
    {
        header.wrap(target, 0).baseVersion(1).mgmtClass(3).classVersion(2).method(1).status(0).classSpecific(0)
            .transactionId(++transactionId).attributeId(0x35).attributeModifier(0);
        return target;
    }

    @Benchmark
    public long decodeMadHeader()
    {
        final MadHeader mad = header.wrap(source, 0, MadHeader.MAD_SIZE);
        return mad.baseVersion() + mad.mgmtClass() + mad.classVersion() + mad.method() + mad.status() +
            mad.classSpecific() + mad.transactionId() + mad.attributeId() + mad.attributeModifier();
    }
}

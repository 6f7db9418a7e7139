package dev.rdmacm.benchmarks;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.files.pcap.ErfPcapWriter;
import dev.rdmacm.protocol.mad.Gsi;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.WRITE;

/**
 * Recording one MAD into a pcap (framing, ERF and pcap headers, one channel write), into /dev/null so
 * that the disk does not count: the cost {@code --pcap} adds to every MAD sent or received.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgs = {"--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class ErfPcapWriterBenchmark
{
    private final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private ErfPcapWriter writer;
    private long timestampNanos = 1_764_417_600_000_000_000L;

    @Setup
    public void setUp() throws IOException
    {
        new MadHeader().wrap(mad, 0).baseVersion(1).mgmtClass(3).classVersion(2).method(0x81)
            .transactionId(0x1234_5678L).attributeId(0x35);
        writer = new ErfPcapWriter(FileChannel.open(Path.of("/dev/null"), WRITE));
    }

    @TearDown
    public void tearDown() throws IOException
    {
        writer.close();
    }

    @Benchmark
    public long writeMad() throws IOException
    {
        writer.write(CaptureDirection.RECEIVED, mad, 0, MadHeader.MAD_SIZE, 1, 4, 1, 1, 0xffff,
            Gsi.QKEY, ++timestampNanos);
        return timestampNanos;
    }
}

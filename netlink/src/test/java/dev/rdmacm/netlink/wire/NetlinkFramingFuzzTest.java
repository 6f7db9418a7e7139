package dev.rdmacm.netlink.wire;

import dev.rdmacm.protocol.fuzz.DecoderDiscovery;
import dev.rdmacm.protocol.fuzz.DecoderFuzzer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The decoder fuzz of cm-protocol ({@link DecoderFuzzer}, from its test jar) over the netlink framing
 * flyweights, which moved here from cm-protocol: the same entry points, seeds and case counts as there.
 * The decoders are found in this package, not listed, so a flyweight added to it is fuzzed too.
 */
class NetlinkFramingFuzzTest
{
    /** A cursor: IllegalStateException when read before next() returned true (next() itself is fuzzed). */
    private static final Map<String, Set<String>> CONTRACT_EXCEPTIONS = Map.of(
        NetlinkAttribute.class.getName(), Set.of("bytes", "string", "type", "u32", "u8", "valueLength", "valueOffset"));

    private static List<Class<?>> decoders()
    {
        return DecoderDiscovery.decoders(NetlinkMessageHeader.class, NetlinkMessageHeader.class.getPackageName());
    }

    @Test
    void shouldFindTheFramingDecoders()
    {
        assertEquals(List.of(NetlinkAttribute.class, NetlinkMessageHeader.class), decoders());
    }

    @Test
    void shouldSeedEveryDecoderWithARealMessage() throws ReflectiveOperationException
    {
        assertEquals(List.of(), new DecoderFuzzer(CONTRACT_EXCEPTIONS).unseeded(decoders(), Set.of()),
            "decoders that no sample message seeds");
    }

    @TestFactory
    Stream<DynamicTest> shouldThrowOnlyMalformedMessageException()
    {
        return new DecoderFuzzer(CONTRACT_EXCEPTIONS).tests(decoders());
    }
}

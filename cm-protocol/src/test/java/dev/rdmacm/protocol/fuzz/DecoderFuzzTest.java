package dev.rdmacm.protocol.fuzz;

import dev.rdmacm.protocol.mad.MadHeader;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes every decoder of cm-protocol (found, not listed: see {@link DecoderDiscovery}) with
 * {@link DecoderFuzzer}: {@value DecoderFuzzer#DEFAULT_ITERATIONS} cases per entry point in CI. The netlink
 * framing that used to live here is fuzzed in the netlink module, by {@code NetlinkFramingFuzzTest}.
 */
class DecoderFuzzTest
{
    /** Getters whose documented contract is an IllegalStateException, not a decoding result. */
    private static final Map<String, Set<String>> CONTRACT_EXCEPTIONS = Map.of(
        "dev.rdmacm.protocol.capture.UdMadPacket", Set.of("grh")); // IllegalStateException when LNH is 2

    /** Decoders of host structs and of headers no sample frame carries: fuzzed from random bytes only. */
    private static final Set<String> NOT_IN_A_MAD = Set.of("IbvPathData", "IbvPathRecord", "SockaddrIb",
        "GlobalRouteHeader");

    private static List<Class<?>> decoders()
    {
        return DecoderDiscovery.decoders(MadHeader.class, "dev.rdmacm.protocol");
    }

    @Test
    void shouldFindTheDecodersOfEveryPackage()
    {
        final List<String> names = decoders().stream().map(Class::getName).toList();

        assertTrue(names.contains("dev.rdmacm.protocol.mad.MadHeader"), names::toString);
        assertTrue(names.contains("dev.rdmacm.protocol.capture.UdMadPacket"), names::toString);
    }

    @Test
    void shouldSeedEveryMessageDecoderWithARealMessage() throws ReflectiveOperationException
    {
        assertEquals(List.of(), new DecoderFuzzer(CONTRACT_EXCEPTIONS).unseeded(decoders(), NOT_IN_A_MAD),
            "decoders that no sample message seeds");
    }

    @TestFactory
    Stream<DynamicTest> shouldThrowOnlyMalformedMessageException()
    {
        return new DecoderFuzzer(CONTRACT_EXCEPTIONS).tests(decoders());
    }
}

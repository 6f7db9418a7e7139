package dev.rdmacm.conformance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import java.util.List;
import java.util.stream.Stream;

class WireDebugTest
{
    @TestFactory
    Stream<DynamicTest> shouldDebug()
    {
        try (GuestPair guests = GuestPair.boot(GuestWire.onFreePorts()))
        {
            final List<DynamicTest> tests = RpingAcrossTheWire.checks(guests);
            return tests.stream();
        }
    }
}

package dev.rdmacm.sa;

import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SaClientClassPortInfoTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @Test
    void shouldReadTheSameClassPortInfoAsSaquery() throws Exception
    {
        final Map<String, String> expected = parseClassPortInfo(fabric().saquery("Hca2", "-c").output());
        try (SaClient client = SaClient.start(
            IbsimTransport.attach(fabric().host(), fabric().ctlPort(), "Hca2", Duration.ofSeconds(2)), SaClientConfig.defaults()))
        {
            final SaRequest request = SaRequest.get(SaAttribute.CLASS_PORT_INFO).description("ClassPortInfo").build();
            final SaResponse response = client.query(request, Duration.ofSeconds(2)).get(5, TimeUnit.SECONDS);
            final UnsafeBuffer cpi = new UnsafeBuffer(response.records().get(0));
            assertEquals(expected.get("Capability mask"), String.format("0x%04X", cpi.getShort(2, BIG_ENDIAN) & 0xffff));
            assertEquals(expected.get("Response time value"), String.format("0x%02X", cpi.getInt(4, BIG_ENDIAN) & 0x1f));
            assertEquals(expected.get("Redirect QP"), String.format("0x%08X", cpi.getInt(32, BIG_ENDIAN)));
            assertEquals(expected.get("Redirect QKey"), String.format("0x%08X", cpi.getInt(36, BIG_ENDIAN)));
        }
    }

    private static Map<String, String> parseClassPortInfo(final String output)
    {
        final java.util.HashMap<String, String> fields = new java.util.HashMap<>();
        for (final String line : output.split("\n"))
        {
            final String trimmed = line.strip();
            final int dots = trimmed.indexOf("..");
            if (dots > 0)
            {
                fields.put(trimmed.substring(0, dots), trimmed.substring(trimmed.lastIndexOf('.') + 1));
            }
        }
        return fields;
    }

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.PortSpace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AsyncGetAddrInfoTest
{
    private static AddrInfoEvent resolve(final String node, final String service, final RdmaAddrInfoHints hints) throws Exception
    {
        try (ExecutorService executor = Executors.newSingleThreadExecutor())
        {
            return RdmaGetAddrInfo.withDefaults().getaddrinfoAsync(node, service, hints, executor).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldDeliverAddrInfoResolvedWithTheEntries() throws Exception
    {
        final AddrInfoEvent event = resolve("192.0.2.1", "7471", null);

        assertEquals(AddrInfoEventType.ADDRINFO_RESOLVED, event.type());
        assertEquals(16, event.type().value());
        assertEquals(0, event.status());
        assertEquals(new AddrInfoResult.Success(List.of(new RdmaAddrInfo(0, AddressFamily.AF_INET, QpType.RC, PortSpace.TCP.code(), null,
            new Ipv4Sockaddr(0xC000_0201, 7471), null, null, null, null))), event.result());
    }

    @Test
    void shouldDeliverAddrInfoErrorWithTheEaiCode() throws Exception
    {
        final AddrInfoEvent event = resolve("192.0.2.1", "no-such-service", null);

        assertEquals(AddrInfoEventType.ADDRINFO_ERROR, event.type());
        assertEquals(17, event.type().value());
        assertEquals(EaiCode.EAI_SERVICE, event.status());
        assertEquals("EAI_SERVICE", ((AddrInfoResult.EaiError)event.result()).name());
    }

    @Test
    void shouldDeliverAddrInfoErrorWithTheNegativeErrno() throws Exception
    {
        final AddrInfoEvent event = resolve(null, null, null);

        assertEquals(AddrInfoEventType.ADDRINFO_ERROR, event.type());
        assertEquals(-22, event.status());
    }
}

package dev.rdmacm.protocol;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceIdTest
{
    @Test
    void shouldMatchTheMasksAndPrefixesOfRdmaCmaH()
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        CHeaders.assertValues("#include <rdma/rdma_cma.h>", Map.ofEntries(
            entry("RDMA_IB_IP_PS_MASK", ServiceId.PS_MASK),
            entry("RDMA_IB_IP_PORT_MASK", ServiceId.PORT_MASK),
            entry("RDMA_IB_IP_PS_TCP", ServiceId.PS_TCP),
            entry("RDMA_IB_IP_PS_UDP", ServiceId.PS_UDP),
            entry("RDMA_IB_PS_IB", ServiceId.PS_IB),
            entry("((uint64_t)RDMA_PS_TCP << 16) | 18515", ServiceId.of(PortSpace.TCP, 18515)),
            entry("((uint64_t)RDMA_PS_UDP << 16) | 65535", ServiceId.of(PortSpace.UDP, 65535)),
            entry("((uint64_t)RDMA_PS_IB << 16) | 0", ServiceId.of(PortSpace.IB, 0))));
    }

    @Test
    void shouldTakeAServiceIdApart()
    {
        final long sid = 0x0000_0000_0106_4853L;

        assertEquals(PortSpace.TCP, ServiceId.portSpace(sid));
        assertEquals(18515, ServiceId.port(sid));
        assertTrue(ServiceId.isRdmaIp(sid));
    }

    @Test
    void shouldFindNoPortSpaceInAForeignServiceId()
    {
        assertNull(ServiceId.portSpace(0x1000_0000_0000_0001L));
        assertFalse(ServiceId.isRdmaIp(ServiceId.of(PortSpace.IB, 1)));
        assertEquals(PortSpace.IPOIB, ServiceId.portSpace(0x0000_0000_0002_0000L));
    }

    @Test
    void shouldFormatAndParseSixteenHexDigits()
    {
        assertEquals("0x0000000001064853", ServiceId.format(PortSpace.TCP.serviceId(18515)));
        assertEquals(0x0000_0000_0106_4853L, ServiceId.parse("0x1064853"));
        assertEquals(-1L, ServiceId.parse("0xffffffffffffffff"));
        assertEquals(17_191_469_139L, ServiceId.parse("17191469139"));
    }

    @Test
    void shouldRejectAPortOutside16Bits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ServiceId.of(PortSpace.TCP, 65536));

        assertEquals("port 65536 is not 0-65535", ex.getMessage());
    }

    @Test
    void shouldRejectTextThatIsNotANumber()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ServiceId.parse("0xfoo"));

        assertEquals("Service ID '0xfoo' is not a 64-bit value: decimal or 0x followed by up to 16 hex digits",
            ex.getMessage());
    }
}

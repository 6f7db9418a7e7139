package dev.rdmacm.protocol;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PortSpaceTest
{
    @Test
    void shouldMatchEnumRdmaPortSpace()
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        CHeaders.assertValues("#include <rdma/rdma_cma.h>", Map.ofEntries(
            entry("RDMA_PS_IPOIB", PortSpace.IPOIB.code()),
            entry("RDMA_PS_TCP", PortSpace.TCP.code()),
            entry("RDMA_PS_UDP", PortSpace.UDP.code()),
            entry("RDMA_PS_IB", PortSpace.IB.code())));
    }

    @Test
    void shouldFindAPortSpaceByCode()
    {
        assertEquals(PortSpace.UDP, PortSpace.fromCode(0x0111));
    }

    @Test
    void shouldRejectAnUnknownCodeListingTheKnownOnes()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PortSpace.fromCode(0x0107));

        assertEquals("port space 0x0107 is not one of RDMA_PS_IPOIB 0x0002, RDMA_PS_TCP 0x0106, " +
            "RDMA_PS_UDP 0x0111, RDMA_PS_IB 0x013f", ex.getMessage());
    }
}

package dev.rdmacm.protocol.sa;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SelectorTest
{
    @Test
    void shouldMatchUmadSaSelectors()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("UMAD_SA_SELECTOR_GREATER_THAN", Selector.GREATER_THAN.code()),
            entry("UMAD_SA_SELECTOR_LESS_THAN", Selector.LESS_THAN.code()),
            entry("UMAD_SA_SELECTOR_EXACTLY", Selector.EXACTLY.code()),
            entry("UMAD_SA_SELECTOR_LARGEST_AVAIL", Selector.LARGEST_AVAILABLE.code()),
            entry("UMAD_SA_SELECTOR_SMALLEST_AVAIL", Selector.LARGEST_AVAILABLE.code()),
            entry("UMAD_SA_SELECTOR_SHIFT", Selector.SHIFT),
            entry("UMAD_SA_RATE_MTU_PKT_LIFE_MASK", Selector.CODE_MASK),
            entry("umad_sa_set_rate_mtu_or_life(UMAD_SA_SELECTOR_EXACTLY, 4)",
                (Selector.EXACTLY.code() << Selector.SHIFT) | MtuCode.MTU_2048.code())));
    }

    @Test
    void shouldMatchOpenSmSelectors()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_PATH_SELECTOR_GREATER_THAN", Selector.GREATER_THAN.code()),
            entry("IB_PATH_SELECTOR_LESS_THAN", Selector.LESS_THAN.code()),
            entry("IB_PATH_SELECTOR_EXACTLY", Selector.EXACTLY.code()),
            entry("IB_PATH_SELECTOR_LARGEST", Selector.LARGEST_AVAILABLE.code())),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldDescribeEachCode()
    {
        assertEquals("0 (>)", Selector.describe(0));
        assertEquals("1 (<)", Selector.describe(1));
        assertEquals("2 (=)", Selector.describe(2));
        assertEquals("3 (best)", Selector.describe(3));
    }

    @Test
    void shouldRejectACodeWiderThanTwoBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Selector.fromCode(4));

        assertEquals("selector 4 is not a 2-bit code 0-3", ex.getMessage());
    }
}

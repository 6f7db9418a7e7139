package dev.rdmacm.cm;

import dev.rdmacm.resolver.NeighbourTriggerMode;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options an RdmaCm opens with: what they refuse and what they keep. */
class RdmaCmOptionsTest
{
    @Test
    void shouldRefuseANegativeSpinNamingIt()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RdmaCm.Options.defaults().spin(Duration.ofNanos(-1)));
        assertTrue(ex.getMessage().contains("spin must be zero or positive"), ex.getMessage());
    }

    @Test
    void shouldKeepTheSpinItWasGivenThroughTheOtherSetters()
    {
        final RdmaCm.Options options = RdmaCm.Options.defaults().spin(Duration.ZERO)
            .trigger(NeighbourTriggerMode.NTF_USE_ELSE_UDP).acmFirstRoute(AcmFirstRoute.OFF);
        assertEquals(Duration.ZERO, options.spin());
    }

    @Test
    void shouldSpinByDefaultOnlyWithASecondCpu()
    {
        final Duration expected = Runtime.getRuntime().availableProcessors() > 1 ? Duration.ofNanos(50_000) : Duration.ZERO;
        assertEquals(expected, RdmaCm.Options.defaults().spin());
    }
}

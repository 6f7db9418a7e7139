package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.protocol.cm.CmAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CmMadFilterTest
{
    private final CmMadFilter lostDreps = CmMadFilter.dropping(CmMadFilter.Direction.RECEIVED, CmAttribute.DREP);

    @Test
    void shouldDropTheChosenMessageInTheChosenDirection()
    {
        assertFalse(lostDreps.pass(CmMadFilter.Direction.RECEIVED, CmAttribute.DREP));
    }

    @Test
    void shouldPassTheChosenMessageTheOtherWay()
    {
        assertTrue(lostDreps.pass(CmMadFilter.Direction.SENT, CmAttribute.DREP));
    }

    @Test
    void shouldPassEveryOtherMessage()
    {
        for (final CmAttribute attribute : CmAttribute.values())
        {
            assertTrue(attribute == CmAttribute.DREP || lostDreps.pass(CmMadFilter.Direction.RECEIVED, attribute), attribute.name());
        }
    }

    @Test
    void shouldPassAnAttributeTheCmClassLacks()
    {
        assertTrue(lostDreps.pass(CmMadFilter.Direction.RECEIVED, null));
    }
}

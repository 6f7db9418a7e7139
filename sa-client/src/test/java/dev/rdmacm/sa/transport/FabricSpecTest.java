package dev.rdmacm.sa.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FabricSpecTest
{
    @Test
    void shouldParseEveryForm()
    {
        assertEquals(new FabricSpec.Verbs(null, 1), FabricSpec.parse("verbs"));
        assertEquals(new FabricSpec.Verbs("mlx5_0", 1), FabricSpec.parse("verbs:mlx5_0"));
        assertEquals(new FabricSpec.Verbs("mlx5_0", 2), FabricSpec.parse("verbs:mlx5_0:2"));
        assertEquals(new FabricSpec.Ibsim("127.0.0.1", 7070, "Hca2"), FabricSpec.parse("ibsim:127.0.0.1:7070:Hca2"));
    }

    @Test
    void shouldNameTheTextAndTheFormsWhenWrong()
    {
        for (final String bad : new String[] {"", "ibsim:h:7070", "ibsim:h:x:Hca2", "verbs:", "verbs:d:0", "rxe:1"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> FabricSpec.parse(bad), bad);
            assertTrue(ex.getMessage().startsWith("fabric"), ex.getMessage());
            assertTrue(ex.getMessage().contains(bad.isEmpty() ? "empty" : "'" + bad + "'"), ex.getMessage());
        }
    }
}

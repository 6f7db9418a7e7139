package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;
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
    void shouldTakeTheSaGidWithItsOwnColonsAsTheLastField()
    {
        assertEquals(new FabricSpec.Verbs("rxe0", 1, Gid.parse("::ffff:10.10.0.2")), FabricSpec.parse("verbs:rxe0:1:sa-gid=::ffff:10.10.0.2"));
        assertEquals(new FabricSpec.Verbs("mlx5_0", 2, Gid.parse("fe80::2:c903:a1:b2c5")),
            FabricSpec.parse("verbs:mlx5_0:2:sa-gid=fe80::2:c903:a1:b2c5"));
    }

    @Test
    void shouldPrintWhatItParses()
    {
        for (final String text : new String[] {"verbs", "verbs:mlx5_0:2", "verbs:rxe0:1:sa-gid=::ffff:10.10.0.2",
            "ibsim:127.0.0.1:7070:Hca2"})
        {
            assertEquals(text, FabricSpec.parse(text).toString());
        }
    }

    @Test
    void shouldNameTheSaGidThatIsNoGid()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> FabricSpec.parse("verbs:rxe0:1:sa-gid=10.10.0.2"));

        assertTrue(ex.getMessage().startsWith("fabric 'verbs:rxe0:1:sa-gid=10.10.0.2': sa-gid= needs a GID: "), ex.getMessage());
    }

    @Test
    void shouldNameTheTextAndTheFormsWhenWrong()
    {
        for (final String bad : new String[] {"", "ibsim:h:7070", "ibsim:h:x:Hca2", "verbs:", "verbs:d:0", "rxe:1", "verbs:d:1:gid=::1",
            "verbs:d:1:sa-gid="})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> FabricSpec.parse(bad), bad);
            assertTrue(ex.getMessage().startsWith("fabric"), ex.getMessage());
            assertTrue(ex.getMessage().contains(bad.isEmpty() ? "empty" : "'" + bad + "'"), ex.getMessage());
        }
    }
}

package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class PathRecordValueTest
{
    @Test
    void shouldRefuseAFlowLabelWiderThanItsTwentyBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new PathRecordValue(0, Gid.parse("fe80::2"), Gid.parse("fe80::1"), Lid.of(2), Lid.of(1), false, 1 << 20,
                0, 0, true, 1, PKey.of(0xffff), 0, 0, 2, 4, 2, 3, 2, 18, 0));

        assertEquals("PathRecord flowLabel 1048576 does not fit its 20 bits (0-1048575)", ex.getMessage());
    }
}

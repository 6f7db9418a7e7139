package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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

    @Test
    void shouldBeEqualWithEveryComponentEqualAndHashAlike() throws Exception
    {
        final PathRecordValue a = sample();
        final PathRecordValue b = sample();

        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
    }

    /** The written-out equals must compare every component the record has, including one added later. */
    @Test
    void shouldDifferWhenAnyOneComponentDiffers() throws Exception
    {
        final PathRecordValue base = sample();
        final RecordComponent[] components = PathRecordValue.class.getRecordComponents();
        final Constructor<PathRecordValue> canonical = PathRecordValue.class.getDeclaredConstructor(
            Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        final List<String> comparedAlike = new ArrayList<>();
        for (int i = 0; i < components.length; i++)
        {
            final Object[] values = new Object[components.length];
            for (int j = 0; j < components.length; j++)
            {
                values[j] = components[j].getAccessor().invoke(base);
            }
            values[i] = other(values[i]);
            if (base.equals(canonical.newInstance(values)))
            {
                comparedAlike.add(components[i].getName());
            }
        }

        assertEquals(List.of(), comparedAlike);
        assertNotEquals(base, null);
    }

    private static PathRecordValue sample()
    {
        return new PathRecordValue(0x1000_0000_0000_0001L, Gid.parse("fe80::2"), Gid.parse("fe80::1"), Lid.of(2), Lid.of(1),
            false, 7, 64, 0, true, 1, PKey.of(0xffff), 0, 0, 2, 4, 2, 3, 2, 18, 0);
    }

    /** Another value of the same type that fits every field's bits. */
    private static Object other(final Object value)
    {
        return switch (value)
        {
            case Long l -> l + 1;
            case Integer n -> n == 0 ? 1 : n - 1;
            case Boolean b -> !b;
            case Gid g -> new Gid(g.subnetPrefix(), g.interfaceId() + 1);
            case Lid l -> Lid.of(l.value() + 1);
            case PKey k -> PKey.of(k.value() - 1);
            default -> throw new IllegalArgumentException("no other value for " + value);
        };
    }
}

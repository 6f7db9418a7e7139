package dev.rdmacm.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** {@link Gid}'s written-out equals and hashCode, against GIDs made two ways. */
@Timeout(10)
class GidEqualityTest
{
    @Test
    void shouldEqualTheGidOfTheSameSixteenBytes()
    {
        final Gid parsed = Gid.parse("fe80::10:4");
        final Gid built = new Gid(Gid.LINK_LOCAL_PREFIX, 0x10_0004L);

        assertEquals(parsed, built);
        assertEquals(parsed.hashCode(), built.hashCode());
    }

    @Test
    void shouldDifferInEitherHalf()
    {
        final Gid gid = Gid.parse("fe80::10:4");

        assertNotEquals(gid, new Gid(0xfe80_0000_0000_0001L, gid.interfaceId()));
        assertNotEquals(gid, new Gid(gid.subnetPrefix(), gid.interfaceId() + 1));
        assertNotEquals(gid, new Gid(gid.interfaceId(), gid.subnetPrefix()));
    }
}

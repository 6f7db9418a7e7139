package dev.rdmacm.resolver;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.sa.path.PathRecordValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class ResolvedRouteTest
{
    private static RoutePath path(final int dlid)
    {
        return new RoutePath(0x2b, new PathRecordValue(0, Gid.parse("fe80::2"), Gid.parse("fe80::1"), Lid.of(dlid), Lid.of(1),
            false, 0, 0, 0, true, 1, PKey.of(0xffff), 0, 0, 2, 4, 2, 3, 2, 18, 0));
    }

    @Test
    void shouldNotChangeWhenTheListItWasMadeFromChanges()
    {
        final List<RoutePath> given = new ArrayList<>(List.of(path(2)));
        final ResolvedRoute route = new ResolvedRoute(ResolvedRoute.Kind.GIVEN, given);

        given.set(0, path(3));
        given.add(path(4));

        assertEquals(List.of(path(2)), route.paths());
    }

    @Test
    void shouldRefuseChangesToTheListItHandsOut()
    {
        final ResolvedRoute route = new ResolvedRoute(ResolvedRoute.Kind.SA_QUERY, path(2));

        assertThrows(UnsupportedOperationException.class, () -> route.paths().add(path(3)));
    }

    @Test
    void shouldNameTheFirstPathPrimary()
    {
        assertEquals(path(2), new ResolvedRoute(ResolvedRoute.Kind.ACM, List.of(path(2), path(3))).primary());
    }

    @Test
    void shouldSaySoWhenAskedForThePrimaryPathOfNoPath()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> new ResolvedRoute(ResolvedRoute.Kind.GIVEN, List.of()).primary());

        assertEquals("the route has no path", ex.getMessage());
    }
}

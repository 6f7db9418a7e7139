package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PathQueryBuilderTest
{
    private static final Gid SGID = new Gid(Gid.LINK_LOCAL_PREFIX, 0x2L);
    private static final Gid DGID = new Gid(Gid.LINK_LOCAL_PREFIX, 0x3L);

    @Test
    void shouldLeaveFreeWhatWasNotSet()
    {
        final PathQuery query = PathQuery.builder().sgid(SGID).dgid(DGID).build();
        assertEquals(PathRecordComponentMask.SGID | PathRecordComponentMask.DGID, query.componentMask());
        assertEquals("{sgid=" + SGID + " dgid=" + DGID + " numb_path=0 reversible=false}", query.toString());
    }

    @Test
    void shouldBeTheSameValueAsTheQueryOfTheSameComponents()
    {
        final PathQuery built = PathQuery.builder().sgid(SGID).dgid(DGID).slid(Lid.of(2)).dlid(Lid.of(3))
            .pKey(PKey.of(0xffff)).serviceId(0x1061d2fL).qosClass(0).numbPath(1).reversible(true).build();
        assertEquals(new PathQuery(DGID, SGID, 3, 2, 0xffff, 0x1061d2fL, null, 0, null, 1, true, false), built);
        assertEquals(PathQuery.byGids(SGID, DGID), PathQuery.builder().sgid(SGID).dgid(DGID).numbPath(1).reversible(true).build());
    }

    @Test
    void shouldNameTheComponentOutOfRange()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PathQuery.builder().dgid(DGID).sl(16).build());
        assertEquals("SL 16 out of range 0..15", ex.getMessage());
    }
}

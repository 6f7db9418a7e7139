package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IbRouteTest
{
    @Test
    void shouldReportAnySaStatusAsEinval()
    {
        assertEquals(Errno.EINVAL, IbRoute.errno(new SaQueryException(SaError.NO_RECORDS, 0x0300, "no records")));
        assertEquals(Errno.EINVAL, IbRoute.errno(new SaQueryException(SaError.NO_RESOURCES, 0x0100, "busy SA")));
        assertEquals(Errno.EINVAL, IbRoute.errno(new SaQueryException(SaError.INVALID_FIELD_VALUE, 0x001c, "bad field")));
    }

    @Test
    void shouldReportNoAnswerAsEtimedout()
    {
        assertEquals(Errno.ETIMEDOUT, IbRoute.errno(new SaQueryException(SaError.TIMED_OUT, -1, "timeout")));
    }

    @Test
    void shouldReportLocalFailuresAsTheKernelsSendAndCancelStatuses()
    {
        assertEquals(Errno.EINTR, IbRoute.errno(new SaQueryException(SaError.CLOSED, -1, "closed")));
        assertEquals(Errno.EIO, IbRoute.errno(new SaQueryException(SaError.TRANSPORT_FAILED, -1, "socket")));
        assertEquals(Errno.ENOMEM, IbRoute.errno(new SaQueryException(SaError.NO_RESOURCES, -1, "queue full")));
        assertEquals(Errno.EIO, IbRoute.errno(new IllegalStateException("engine died")));
    }

    @Test
    void shouldWrapTheSaRecordInAnIbvPathDataWithUcmaQueryPathFlags()
    {
        final byte[] record = new byte[PathRecord.LENGTH];
        new PathRecord().wrap(new UnsafeBuffer(record), 0).dgid(Gid.parse("fe80::10:7")).dlid(5).slid(4);

        final byte[] data = RoutePath.fromSaRecord(record).toPathData();
        final IbvPathData wire = new IbvPathData().wrap(new UnsafeBuffer(data), 0, data.length);

        assertEquals(IbvPathData.LENGTH, data.length);
        assertEquals(0x2bL, wire.flags());
        assertEquals(5, wire.path().dlid());
        assertEquals(4, wire.path().slid());
        assertEquals(Gid.parse("fe80::10:7"), wire.path().dgid());
    }
}

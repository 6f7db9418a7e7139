package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaResponse;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A test double's answer, a 12-byte record where the SA sends 64, which no real SA sends: reading it
     * throws, and the route still ends, with EIO, rather than leaving the id waiting for good.
     */
    @Test
    void shouldEndTheRouteWithEioWhenTheAnswerCannotBeRead()
    {
        final CompletableFuture<ResolvedRoute> route = new CompletableFuture<>();
        final SaResponse truncated = new SaResponse(0x81, SaAttribute.PATH_RECORD, 12, List.of(new byte[12]), false);

        IbRoute.complete(route, IbRouteQuery.ib(Gid.parse("fe80::10:4"), Gid.parse("fe80::10:7"), 0xffff, 0x1060000, 0),
            truncated, null);

        final ExecutionException failure = assertThrows(ExecutionException.class, route::get);
        final RouteException cause = assertInstanceOf(RouteException.class, failure.getCause());
        assertEquals(Errno.EIO, cause.errno());
        assertTrue(cause.getMessage().contains("the answer could not be read"), cause.getMessage());
    }
}

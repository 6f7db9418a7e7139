package dev.rdmacm.sa;

import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.sa.SaAttribute;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SaRequestTest
{
    @Test
    void shouldFixTheMethodsAndLeaveTheRestAtTheirDefaults()
    {
        final SaRequest request = SaRequest.getMulti(SaAttribute.MULTI_PATH_RECORD, SaAttribute.PATH_RECORD)
            .description("MultiPathRecord GetMulti").build();
        assertEquals(MadMethod.GET_MULTI, request.method());
        assertEquals(MadMethod.GET_MULTI_RESP, request.responseMethod());
        assertEquals(SaAttribute.PATH_RECORD, request.responseAttributeId());
        assertEquals(true, request.rmppSend());
        assertEquals(0, request.componentMask());
        assertEquals(0, request.payload().length);
        assertEquals(0, request.recordLength());
        assertSame(RecordCheck.ANY, request.recordCheck());
        assertNull(request.cacheKey());
    }

    @Test
    void shouldRefuseARequestWithoutADescription()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> SaRequest.get(SaAttribute.PATH_RECORD).build());
        assertEquals(MadMethod.name(MadMethod.GET) + " " + SaAttribute.name(SaAttribute.PATH_RECORD) +
            ": a request needs a description", ex.getMessage());
    }

    @Test
    void shouldRefuseACacheKeyOnARequestWithSideEffects()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> SaRequest.set(SaAttribute.SERVICE_RECORD).description("ServiceRecord Set 'x'").cacheKey("x").build());
        assertEquals("ServiceRecord Set 'x': a " + MadMethod.name(MadMethod.SET) +
            " has side effects and cannot be cached or coalesced (cache key x)", ex.getMessage());
    }
}

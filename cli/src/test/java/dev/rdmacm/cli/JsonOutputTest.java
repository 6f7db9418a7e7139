package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shapes the one renderer gives every command's {@code --json}. */
class JsonOutputTest
{
    @Test
    void shouldWriteAnErrorAsNameCodeAndMessage()
    {
        assertEquals("{\"error\":\"ENODEV\",\"code\":19,\"message\":\"no fabric\"}",
            JsonOutput.write(JsonOutput.errno(19, "no fabric")));
    }

    @Test
    void shouldAddTheCallToASynchronousFailure()
    {
        assertEquals("{\"error\":\"EHOSTUNREACH\",\"code\":113,\"message\":\"m\",\"call\":\"rdma_resolve_addr\"}",
            JsonOutput.write(JsonOutput.callError("rdma_resolve_addr", 113, "m")));
    }

    @Test
    void shouldTurnAnErrnoNameIntoItsNumber()
    {
        assertEquals(61, JsonOutput.errnoNumber("ENODATA"));
    }
}

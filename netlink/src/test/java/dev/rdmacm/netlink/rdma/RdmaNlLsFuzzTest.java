package dev.rdmacm.netlink.rdma;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the RDMA netlink local-service ({@code rdmanl})
 * decoders, whose static {@code decode} methods the decoder discovery of cm-protocol does not find: each
 * message goes to all five (RESOLVE and IP_RESOLVE requests, both answers, SET_TIMEOUT). The contract: a
 * decoded value or {@link MalformedMessageException}, nothing else. Seeds: the messages
 * {@code RdmaNlLsTest} builds in C with the kernel's NLMSG and NLA macros.
 */
class RdmaNlLsFuzzTest
{
    @FuzzTest
    void shouldDecodeOrThrowMalformed(final byte[] message)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(message);
        try
        {
            final LsResolveRequest request = LsResolveRequest.decode(buffer, 0, message.length);
            assertNotNull(request.deviceName());
            assertEquals(LsResolveRequest.PATH_LENGTH, request.pathTemplate().length);
        }
        catch (final MalformedMessageException expected)
        {
            assertNotNull(expected.getMessage());
        }
        try
        {
            final LsIpResolve resolve = LsIpResolve.decode(buffer, 0, message.length);
            assertTrue(resolve.address() == null || resolve.address().length == 4 || resolve.address().length == 16);
        }
        catch (final MalformedMessageException expected)
        {
            assertNotNull(expected.getMessage());
        }
        try
        {
            LsIpResolve.decodeResponse(buffer, 0, message.length);
        }
        catch (final MalformedMessageException expected)
        {
            assertNotNull(expected.getMessage());
        }
        try
        {
            final byte[] path = LsResolveResponse.decodePath(buffer, 0, message.length);
            assertTrue(path == null || path.length == LsResolveRequest.PATH_LENGTH);
        }
        catch (final MalformedMessageException expected)
        {
            assertNotNull(expected.getMessage());
        }
        try
        {
            assertTrue(LsSetTimeout.decodeTimeoutMs(buffer, 0, message.length) >= -1);
        }
        catch (final MalformedMessageException expected)
        {
            assertNotNull(expected.getMessage());
        }
    }
}

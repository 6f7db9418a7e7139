package dev.rdmacm.acm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.files.text.BoundedTextFile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the device-less endpoint file ({@code ibacm_addr.cfg}
 * with {@code gid lid} columns), from its bytes. The contract: endpoints with a unicast LID and no address
 * on two of them, or an {@link IllegalArgumentException} naming the file and the line. Seeds: the endpoint
 * files of the tests.
 */
class AcmEndpointFileFuzzTest
{
    private static final String SOURCE = "fuzz_addr.cfg";
    private static final Pattern WHERE = Pattern.compile("^fuzz_addr\\.cfg:[1-9][0-9]*: .+", Pattern.DOTALL);

    @FuzzTest
    void shouldParseEndpointsOrNameTheLineAndRule(final byte[] file) throws IOException
    {
        final List<AcmEndpoint> endpoints;
        try
        {
            endpoints = AcmEndpointFile.parse(BoundedTextFile.readLines(new ByteArrayInputStream(file), SOURCE,
                BoundedTextFile.CONFIG_MAX_BYTES), SOURCE);
        }
        catch (final IllegalArgumentException ex)
        {
            assertTrue(ex.getMessage() != null && WHERE.matcher(ex.getMessage()).matches(), () -> String.valueOf(ex));
            return;
        }
        final Set<AcmAddress> seen = new HashSet<>();
        for (final AcmEndpoint endpoint : endpoints)
        {
            assertTrue(endpoint.lid() >= 1 && endpoint.lid() <= AcmEndpointFile.MAX_UNICAST_LID
                || endpoint.lid() == 0, endpoint::toString);
            for (final AcmAddress address : endpoint.addresses())
            {
                assertTrue(seen.add(address), () -> "address on two endpoints: " + address);
            }
            assertFalse(endpoint.addresses().isEmpty(), endpoint::toString);
        }
    }
}

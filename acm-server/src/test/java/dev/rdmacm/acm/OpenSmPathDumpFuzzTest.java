package dev.rdmacm.acm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.files.text.BoundedTextFile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of OpenSM's path dump ({@code opensm-path-records.dump}),
 * from its bytes. The contract: sections whose LIDs are unicast and whose SL, MTU and rate are codes IBA
 * defines, or an {@link IllegalArgumentException} naming the file and the line. Seeds: the dumps of the
 * tests.
 */
class OpenSmPathDumpFuzzTest
{
    private static final String SOURCE = "fuzz.dump";
    private static final Pattern WHERE = Pattern.compile("^fuzz\\.dump:[1-9][0-9]*: .+", Pattern.DOTALL);

    @FuzzTest
    void shouldParseSectionsOrNameTheLineAndRule(final byte[] file) throws IOException
    {
        final OpenSmPathDump dump;
        try
        {
            dump = OpenSmPathDump.parse(BoundedTextFile.readLines(new ByteArrayInputStream(file), SOURCE,
                BoundedTextFile.DATA_MAX_BYTES), SOURCE);
        }
        catch (final IllegalArgumentException ex)
        {
            assertTrue(ex.getMessage() != null && WHERE.matcher(ex.getMessage()).matches(), () -> String.valueOf(ex));
            return;
        }
        for (final OpenSmPathDump.Section section : dump.sections())
        {
            assertUnicast(section.baseLid());
            assertNotNull(dump.guidOf(section.baseLid()));
            for (final OpenSmPathDump.Destination destination : section.destinations())
            {
                assertUnicast(destination.dlid());
                assertTrue(destination.sl() >= 0 && destination.sl() <= 15, destination::toString);
                assertTrue(destination.mtu() >= 1 && destination.mtu() <= 5, destination::toString);
                assertTrue(destination.rate() >= 2, destination::toString);
            }
        }
    }

    private static void assertUnicast(final int lid)
    {
        assertTrue(lid >= 1 && lid <= AcmEndpointFile.MAX_UNICAST_LID, () -> "LID " + lid);
    }
}

package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user of the library from another Maven project meets first (issue 31): the licence, in
 * {@code LICENSE} and in the poms every artifact inherits.
 */
@Timeout(60)
class LibraryPackagingTest
{
    private final Path root = ProjectLayoutTest.root();

    @Test
    void shouldShipTheApacheLicenceTextAtTheRoot() throws IOException
    {
        final String licence = Files.readString(root.resolve("LICENSE"), StandardCharsets.UTF_8);

        assertTrue(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004")
            && licence.contains("END OF TERMS AND CONDITIONS"), "LICENSE is the whole Apache License 2.0");
    }

    @Test
    void shouldNameTheLicenceInTheParentPom() throws IOException
    {
        final String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);

        assertTrue(pom.matches("(?s).*<licenses>\\s*(<!--.*?-->\\s*)?<license>\\s*<name>Apache-2.0</name>\\s*"
            + "<url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>.*"), "the parent pom's <licenses>");
    }
}

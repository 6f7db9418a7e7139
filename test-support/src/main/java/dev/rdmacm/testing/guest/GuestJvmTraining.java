package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The training workload for the guest JVM's AOT cache ({@link GuestJvm}): run on the host, it loads
 * and links what every in-guest run needs (the JUnit launcher, Jupiter's engine, extensions and
 * assertions), so the guest JVM, which runs ten times slower under TCG, starts with them ready.
 */
class GuestJvmTraining
{
    @TempDir
    Path directory;

    @Test
    void shouldPassAnAssertion() throws IOException
    {
        Files.writeString(directory.resolve("training"), "trained");

        assertEquals(List.of("trained"), Files.readAllLines(directory.resolve("training")));
    }

    @Test
    void shouldCatchAnException()
    {
        assertThrows(IllegalStateException.class, () ->
        {
            throw new IllegalStateException("training");
        });
    }
}

package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Run by {@link KernelGuestTest} inside its guest: the JVM there sees the guest's kernel, not the host's. */
class FixtureInGuest
{
    @Test
    void shouldRunInTheGuestKernel() throws IOException
    {
        assertEquals("fixture", Files.readString(Path.of("/proc/sys/kernel/hostname")).strip());
    }
}

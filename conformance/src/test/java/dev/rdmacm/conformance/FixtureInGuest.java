package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Run by the conformance module's {@code SoftRoceGuestsTest} inside its guest: the JVM there
 * sees the guest's kernel, whose release the host wrote into the share as {@link #RELEASE_FILE}, not
 * the host's.
 */
public class FixtureInGuest
{
    public static final String RELEASE_FILE = "kernel-release";

    @Test
    void shouldRunInTheGuestKernel() throws IOException
    {
        final String expected = Files.readString(Path.of(System.getenv("RDMACM_GUEST_SHARE"), RELEASE_FILE)).strip();
        assertEquals(expected, Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
    }
}

package dev.rdmacm.libc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SysctlFileTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReadWhatTheSysctlCommandReads() throws Exception
    {
        final Process sysctl = new ProcessBuilder("/usr/sbin/sysctl", "-n", "net.ipv4.ip_default_ttl").start();
        final String expected = new String(sysctl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertEquals(0, sysctl.waitFor());

        try (SysctlFile file = new SysctlFile(Path.of("/proc/sys/net/ipv4/ip_default_ttl")))
        {
            assertEquals(Integer.parseInt(expected), file.readInt());
            assertEquals(Integer.parseInt(expected), file.readInt());
        }
    }

    @Test
    void shouldReadTheValueWrittenSinceTheLastRead() throws IOException
    {
        final Path value = Files.writeString(dir.resolve("hop_limit"), "64\n");
        try (SysctlFile file = new SysctlFile(value))
        {
            assertEquals(64, file.readInt());
            Files.writeString(value, "7\n");
            assertEquals(7, file.readInt());
        }
    }

    @Test
    void shouldReadTheFirstOfSeveralFields() throws IOException
    {
        try (SysctlFile file = new SysctlFile(Files.writeString(dir.resolve("ip_local_port_range"), "32768\t60999\n")))
        {
            assertEquals(32768, file.readInt());
        }
    }

    @Test
    void shouldNameTheFileThatHoldsNoInteger() throws IOException
    {
        final Path value = Files.writeString(dir.resolve("ttl"), "sixty-four\n");
        try (SysctlFile file = new SysctlFile(value))
        {
            final IOException error = assertThrows(IOException.class, file::readInt);
            assertEquals(value + ": not a decimal integer", error.getMessage());
        }
    }

    @Test
    void shouldRefuseAValueBeyondAnInt() throws IOException
    {
        try (SysctlFile file = new SysctlFile(Files.writeString(dir.resolve("big"), "2147483648\n")))
        {
            assertThrows(IOException.class, file::readInt);
        }
    }

    @Test
    void shouldOpenAFileThatAppearsAfterAFailedRead() throws IOException
    {
        final Path value = dir.resolve("late");
        try (SysctlFile file = new SysctlFile(value))
        {
            assertThrows(NoSuchFileException.class, file::readInt);
            Files.writeString(value, "-1\n");
            assertEquals(-1, file.readInt());
        }
    }

    @Test
    void shouldHoldNoDescriptorOnceClosed() throws IOException
    {
        final Path value = Files.writeString(dir.resolve("ttl"), "64\n");
        final SysctlFile file = new SysctlFile(value);
        file.readInt();
        file.close();
        try (var fds = Files.list(Path.of("/proc/self/fd")))
        {
            assertTrue(fds.noneMatch(fd -> value.equals(readLink(fd))), "a descriptor of " + value + " is still open");
        }
    }

    private static Path readLink(final Path fd)
    {
        try
        {
            return Files.readSymbolicLink(fd);
        }
        catch (final IOException gone)
        {
            return null;
        }
    }
}

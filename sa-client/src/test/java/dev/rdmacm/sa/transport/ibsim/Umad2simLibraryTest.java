package dev.rdmacm.sa.transport.ibsim;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Umad2simLibraryTest
{
    @Test
    void shouldFindTheLibraryDpkgInstalled()
    {
        Peers.requireCommand("dpkg", "dpkg");
        final HostCommand.Outcome listing = HostCommand.run(Duration.ofSeconds(30), "dpkg", "-L", "libumad2sim0");
        Peers.require(listing.succeeded(), "libumad2sim0 (ibsim-utils) is not installed: " + listing.output());
        final String installed = listing.output().lines().filter(line -> line.endsWith("/umad2sim/libumad2sim.so"))
            .findFirst().orElseThrow(() -> new AssertionError("dpkg lists no libumad2sim.so: " + listing.output()));

        assertEquals(Path.of(installed), Umad2simLibrary.find());
    }

    @Test
    void shouldFindTheLibraryInAnotherArchitecturesTripletDirectory(@TempDir final Path root) throws IOException
    {
        Files.createDirectories(root.resolve("usr/lib/x86_64-linux-gnu"));
        final Path arm = Files.createDirectories(root.resolve("usr/lib/aarch64-linux-gnu/umad2sim"))
            .resolve("libumad2sim.so");
        Files.writeString(arm, "");

        assertEquals(arm, Umad2simLibrary.find(root));
    }

    @Test
    void shouldNameTheX86PathWhenNoLibraryIsInstalled(@TempDir final Path root) throws IOException
    {
        Files.createDirectories(root.resolve("usr/lib/aarch64-linux-gnu"));

        assertEquals(root.resolve("usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"), Umad2simLibrary.find(root));
    }
}

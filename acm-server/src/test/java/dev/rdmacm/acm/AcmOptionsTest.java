package dev.rdmacm.acm;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AcmOptionsTest
{
    @Test
    void shouldUseIbacmDefaultsWhenFileIsMissing() throws IOException
    {
        final AcmOptions options = AcmOptions.read(Path.of("/nonexistent/ibacm_opts.cfg"));
        assertEquals(Duration.ofMillis(2000), options.timeout());
        assertEquals(2, options.retries());
        assertEquals(1, options.saDepth());
        assertEquals(Optional.of(Duration.ofMinutes(1440)), options.addrTimeout());
        assertEquals(Optional.empty(), options.routeTimeout());
        assertEquals(AcmServerMode.UNIX, options.serverMode());
        assertEquals(6125, options.serverPort());
        assertEquals(Path.of("/run"), options.runDir());
        assertFalse(options.addrPreload());
        assertFalse(options.routePreload());
    }

    @Test
    void shouldReadIbacmFormatCaseInsensitivelyIgnoringCommentsAndUnknownNames() throws IOException
    {
        final Path file = Files.createTempFile("ibacm_opts", ".cfg");
        try
        {
            Files.writeString(file, """
                # InfiniBand Communication Management Assistant for clusters configuration file
                log_file stderr
                LOG_LEVEL 2
                timeout 500
                retries 4
                sa_depth 3
                addr_timeout 10
                route_timeout -1
                server_mode Loop
                server_port 6200
                acme_plus_kernel_only yes
                addr_preload acm_hosts
                addr_data_file /etc/rdma/hosts.data
                route_preload opensm_full_v1
                route_data_file /var/log/opensm-path-records.dump
                provider ibacmp
                lonely_word
                """);
            final AcmOptions options = AcmOptions.read(file);
            assertEquals("stderr", options.logFile());
            assertEquals(2, options.logLevel());
            assertEquals(Duration.ofMillis(500), options.timeout());
            assertEquals(4, options.retries());
            assertEquals(3, options.saDepth());
            assertEquals(Optional.of(Duration.ofMinutes(10)), options.addrTimeout());
            assertEquals(AcmServerMode.LOOP, options.serverMode());
            assertEquals(6200, options.serverPort());
            assertTrue(options.acmePlusKernelOnly());
            assertTrue(options.addrPreload());
            assertEquals(Path.of("/etc/rdma/hosts.data"), options.addrDataFile());
            assertTrue(options.routePreload());
            assertEquals(Path.of("/var/log/opensm-path-records.dump"), options.routeDataFile());
            assertEquals(List.of("provider"), options.ignored());
            assertEquals(500L * 5 * 1_000_000L, options.saDeadlineNs());
            assertEquals(Duration.ofMillis(500L * 5), options.saDeadline());
        }
        finally
        {
            Files.delete(file);
        }
    }

    @Test
    void shouldReadServerModeInAnyCase()
    {
        assertEquals(AcmServerMode.OPEN, new AcmOptions().apply("server_mode OPEN", "test").serverMode());
        assertEquals(AcmServerMode.UNIX, new AcmOptions().apply("server_mode unix", "test").serverMode());
    }

    @Test
    void shouldRejectNonNumericTimeoutNamingFileLineAndOption()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new AcmOptions().apply("timeout soon", "opts.cfg:3"));
        assertEquals("opts.cfg:3: option timeout 'soon' is not an integer", ex.getMessage());
    }

    @Test
    void shouldRejectPortOutOfRange()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new AcmOptions().apply("server_port 70000", "opts.cfg:1"));
        assertEquals("opts.cfg:1: option server_port must be 0..65535, got 70000", ex.getMessage());
    }

    @Test
    void shouldTreatNegativeLifetimeAsNeverExpiring()
    {
        assertEquals(Long.MAX_VALUE, AcmOptions.lifetimeNs(-1));
        assertEquals(60_000_000_000L, AcmOptions.lifetimeNs(1));
    }
}

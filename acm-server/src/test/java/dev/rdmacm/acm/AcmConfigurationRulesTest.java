package dev.rdmacm.acm;

import dev.rdmacm.files.ibacm.HostsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 30's configuration defects: every value has a rule, a bad line names the file, the line and
 * the rule, and no file can make a reader run out of memory. The expected messages are our own rules.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcmConfigurationRulesTest
{
    @TempDir
    Path dir;

    private static String rejected(final String line)
    {
        return assertThrows(IllegalArgumentException.class, () -> new AcmOptions().apply(line, "opts.cfg:7")).getMessage();
    }

    @Test
    void shouldRejectRetriesThatWouldOverflowTheSaDeadline()
    {
        assertEquals("opts.cfg:7: option retries must be 0..1000, got 2147483647", rejected("retries 2147483647"));
        final AcmOptions options = new AcmOptions().apply("timeout 3600000", "opts.cfg:1");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> options.apply("retries 1000", "opts.cfg:2"));
        assertEquals("opts.cfg:2: option retries 1000 makes timeout 3600000 ms x (retries 1000 + 1) longer than "
            + "86400000 ms", ex.getMessage());
    }

    @Test
    void shouldRejectOutOfRangeValues()
    {
        assertEquals("opts.cfg:7: option timeout must be 1..3600000, got 0", rejected("timeout 0"));
        assertEquals("opts.cfg:7: option sa_depth must be 1..1024, got 99999", rejected("sa_depth 99999"));
        assertEquals("opts.cfg:7: option max_clients must be 1..65536, got 0", rejected("max_clients 0"));
        assertEquals("opts.cfg:7: option log_level must be 0..9, got -1", rejected("log_level -1"));
        assertEquals("opts.cfg:7: option addr_timeout must be negative (never expires) or 0..52560000 minutes, got "
            + "99999999999", rejected("addr_timeout 99999999999"));
        assertEquals("opts.cfg:7: option timeout has no value", rejected("timeout"));
    }

    @Test
    void shouldRejectUnknownEnumValues()
    {
        assertEquals("opts.cfg:7: server_mode must be unix, loop or open, got 'bogus'", rejected("server_mode bogus"));
        assertEquals("opts.cfg:7: option addr_preload must be none or acm_hosts, got 'dns'", rejected("addr_preload dns"));
        assertEquals("opts.cfg:7: option route_preload must be none or opensm_full_v1, got 'full'",
            rejected("route_preload full"));
        assertEquals("opts.cfg:7: option acme_plus_kernel_only must be yes, no, true, false or an integer, got 'maybe'",
            rejected("acme_plus_kernel_only maybe"));
    }

    @Test
    void shouldNameFileAndLineOfANonUtf8OptionsFile() throws IOException
    {
        final Path file = dir.resolve("opts.cfg");
        Files.write(file, new byte[] {'l', 'o', 'g', '_', 'l', 'e', 'v', 'e', 'l', ' ', '1', '\n', '#', ' ', (byte)0xff, '\n'});
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> AcmOptions.read(file));
        assertEquals(file + ":2: not UTF-8 (byte 0xff at column 3)", ex.getMessage());
    }

    @Test
    void shouldRefuseDevZeroAsOptionsHostsEndpointsOrPathDump()
    {
        final Path zero = Path.of("/dev/zero");
        final String expected = "/dev/zero:1: line is longer than 4096 bytes";
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> AcmOptions.read(zero)).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> HostsFile.read(zero)).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> AcmEndpointFile.read(zero)).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> OpenSmPathDump.read(zero)).getMessage());
    }

    @Test
    void shouldRefuseAnOptionsFileLargerThanItsBound() throws IOException
    {
        final Path file = dir.resolve("opts.cfg");
        Files.write(file, ("# padding\n").repeat(110_000).getBytes());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> AcmOptions.read(file));
        assertEquals(file + ":104858: file is larger than 1048576 bytes, the most read for it", ex.getMessage());
    }

    private static String dumpError(final String routeLine)
    {
        return assertThrows(IllegalArgumentException.class, () -> OpenSmPathDump.parse(List.of(
            "Channel Adapter 0x0002c90300000001, base LID 1, \"node-a HCA-1\", port 1",
            "# LID  : SL : MTU : RATE",
            routeLine), "dump")).getMessage();
    }

    @Test
    void shouldRejectBadPathDumpLinesNamingFileAndLine()
    {
        assertEquals("dump:3: LID 0x10000 is outside 1..49151", dumpError("0x10000 : 0 : 4 : 3"));
        assertEquals("dump:3: SL 99 is outside 0..15", dumpError("0x0005 : 99 : 4 : 3"));
        assertEquals("dump:3: MTU code 9 is outside 1..5", dumpError("0x0005 : 0 : 9 : 3"));
        assertEquals("dump:1: GUID '0xzz' is not 1 to 16 hex digits", assertThrows(IllegalArgumentException.class,
            () -> OpenSmPathDump.parse(List.of("Channel Adapter 0xzz, base LID 1, \"a\", port 1"), "dump")).getMessage());
    }

    @Test
    void shouldStillSkipUnreachableAndHeadingLinesInAPathDump()
    {
        final OpenSmPathDump dump = OpenSmPathDump.parse(AcmServerFixture.PATH_DUMP.lines().toList(), "dump");
        assertEquals(3, dump.sections().size());
        assertEquals(3, dump.sections().getFirst().destinations().size());
    }

    @Test
    void shouldRejectOneAddressOnTwoEndpoints()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> AcmEndpointFile.parse(
            List.of("192.0.2.2 mlx5_0 1 0xffff fe80::1 1", "192.0.2.2 mlx5_0 2 0xffff fe80::2 2"), "addr.cfg"));
        assertEquals("addr.cfg:2: address 192.0.2.2 already names mlx5_0 port 1 pkey 0xffff (addr.cfg:1): an address "
            + "names one endpoint", ex.getMessage());
    }

    @Test
    void shouldRejectLidZeroOnAnInfinibandEndpoint()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> AcmEndpointFile.parse(
            List.of("192.0.2.2 mlx5_0 1 0xffff fe80::1 0"), "addr.cfg"));
        assertEquals("addr.cfg:1: lid 0 is no port's LID: an InfiniBand port has a unicast LID 1..0xbfff (only a RoCE "
            + "GID, ::ffff:a.b.c.d, goes with lid 0)", ex.getMessage());
        assertEquals(0, AcmEndpointFile.parse(List.of("192.0.2.2 rxe0 1 0xffff ::ffff:192.0.2.2 0"), "addr.cfg")
            .getFirst().lid(), "a RoCE v2 GID has no LID");
    }
}

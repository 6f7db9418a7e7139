package dev.rdmacm.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real tshark as an independent decoder of the packets we write: runs
 * {@code tshark -r FILE -T ek -e FIELD...} and returns, per packet, each requested field that tshark
 * found with all its values as tshark prints them ({@code "0x0035"}, {@code "fe80::1"}, {@code "7"}).
 * A field that tshark did not decode is absent from the packet's map.
 */
public final class Tshark
{
    private static final long TIMEOUT_SECONDS = 60;

    private Tshark()
    {
    }

    /**
     * Decodes {@code pcap} and returns one map per packet, in file order, keyed by the dotted field
     * names given (e.g. {@code infiniband.mad.method}).
     */
    public static List<Map<String, List<String>>> decode(final Path pcap, final String... fields)
    {
        return decode(pcap, List.of(), fields);
    }

    /** As {@link #decode(Path, String...)}, with tshark {@code options} first, e.g. {@code -o ip.check_checksum:TRUE}. */
    public static List<Map<String, List<String>>> decode(final Path pcap, final List<String> options, final String... fields)
    {
        final Path tshark = Peers.requireCommand("tshark", "tshark");
        final List<String> command = new ArrayList<>(List.of(tshark.toString(), "-n", "-r", pcap.toString(), "-T", "ek"));
        command.addAll(options);
        for (final String field : fields)
        {
            command.add("-e");
            command.add(field);
        }
        final List<Map<String, List<String>>> packets = new ArrayList<>();
        for (final String line : run(command).split("\n"))
        {
            if (line.isBlank() || line.startsWith("{\"index\""))
            {
                continue;
            }
            packets.add(fieldsOf(line, fields));
        }
        return packets;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> fieldsOf(final String line, final String[] fields)
    {
        final Map<String, Object> document = (Map<String, Object>)EkJson.parse(line);
        final Map<String, Object> layers = (Map<String, Object>)document.getOrDefault("layers", Map.of());
        final Map<String, List<String>> packet = new LinkedHashMap<>();
        for (final String field : fields)
        {
            // -T ek spells field names with underscores for dots
            final Object values = layers.get(field.replace('.', '_'));
            if (values != null)
            {
                final List<String> strings = new ArrayList<>();
                for (final Object value : (List<Object>)values)
                {
                    strings.add(String.valueOf(value));
                }
                packet.put(field, strings);
            }
        }
        return packet;
    }

    private static String run(final List<String> command)
    {
        Path stderr = null;
        Process process = null;
        try
        {
            stderr = Files.createTempFile("rdmacm-tshark", ".err");
            process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                throw new AssertionError("tshark did not finish in " + TIMEOUT_SECONDS + " s: " + command);
            }
            if (process.exitValue() != 0)
            {
                throw new AssertionError("tshark exited with " + process.exitValue() + ": " + command + "\n" +
                    Files.readString(stderr, StandardCharsets.UTF_8));
            }
            return output;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot run tshark: " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running tshark", ex);
        }
        finally
        {
            if (process != null && process.isAlive())
            {
                process.destroyForcibly();
            }
            if (stderr != null)
            {
                stderr.toFile().delete();
            }
        }
    }
}

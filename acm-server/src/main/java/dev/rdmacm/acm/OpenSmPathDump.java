package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenSM's full path-record dump, {@code opensm-path-records.dump} (ibacm's
 * {@code route_preload opensm_full_v1}, {@code route_data_file}). OpenSM writes it from its
 * {@code opensmdumppr} event plugin when {@code DUMP_FULL_PATH_RECORDS} is set; Debian 12 does not
 * ship that plugin, so the format is taken from the plugin's source and ibacm's reader:
 * <pre>
 *   Channel Adapter 0x0002c90300000001, base LID 1, "node a HCA-1", port 1
 *   # LID  : SL : MTU : RATE
 *   0x0001 : 0  : 4   : 3
 *   0x0005 : UNREACHABLE
 *
 *   Switch 0x0002c90300000100, base LID 3, "switch 1", port 0
 *   ...
 * </pre>
 * One section per source port (Channel Adapter, Switch or Router, its port GUID and base LID), one
 * line per destination base LID: SL, MTU and rate enums. The GUID of each LID is learnt from the
 * section headers, as ibacm does. Lines that are neither are ignored.
 */
public final class OpenSmPathDump
{
    /** The packet lifetime ibacm takes from the port's subnet timeout; OpenSM's default is 18. */
    public static final int DEFAULT_PACKET_LIFETIME = 18;

    public record Destination(int dlid, int sl, int mtu, int rate)
    {
    }

    public record Section(long portGuid, int baseLid, List<Destination> destinations)
    {
    }

    private final List<Section> sections;
    private final Map<Integer, Long> guidByLid;

    private OpenSmPathDump(final List<Section> sections, final Map<Integer, Long> guidByLid)
    {
        this.sections = sections;
        this.guidByLid = guidByLid;
    }

    public static OpenSmPathDump read(final Path file) throws IOException
    {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    public static OpenSmPathDump parse(final List<String> lines)
    {
        final List<Section> sections = new ArrayList<>();
        final Map<Integer, Long> guidByLid = new HashMap<>();
        List<Destination> current = null;
        for (final String raw : lines)
        {
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            if (line.startsWith("Channel Adapter ") || line.startsWith("Switch ") || line.startsWith("Router "))
            {
                current = null;
                final String rest = line.startsWith("Channel Adapter ") ? line.substring(16) : line.substring(line.indexOf(' ') + 1);
                final int comma = rest.indexOf(',');
                final int base = rest.indexOf("base LID ");
                if (comma < 0 || base < 0)
                {
                    continue;
                }
                final int lidEnd = rest.indexOf(',', base);
                try
                {
                    final long guid = Long.parseUnsignedLong(stripHex(rest.substring(0, comma).trim()), 16);
                    final int lid = Integer.decode(rest.substring(base + 9, lidEnd < 0 ? rest.length() : lidEnd).trim());
                    if (lid <= 0 || lid >= 0xc000)
                    {
                        continue;
                    }
                    guidByLid.putIfAbsent(lid, guid);
                    current = new ArrayList<>();
                    sections.add(new Section(guid, lid, current));
                }
                catch (final NumberFormatException ex)
                {
                    current = null;
                }
                continue;
            }
            if (current == null)
            {
                continue;
            }
            final String[] fields = line.split(":");
            if (fields.length < 4)
            {
                continue;
            }
            try
            {
                current.add(new Destination(Integer.decode(fields[0].trim()), Integer.parseInt(fields[1].trim()),
                    Integer.parseInt(fields[2].trim()), Integer.parseInt(fields[3].trim())));
            }
            catch (final NumberFormatException ex)
            {
                // "UNREACHABLE" and malformed lines carry no route
            }
        }
        return new OpenSmPathDump(List.copyOf(sections), guidByLid);
    }

    private static String stripHex(final String text)
    {
        return text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
    }

    public List<Section> sections()
    {
        return sections;
    }

    /** The port GUID whose base LID is {@code lid}, or null. */
    public Long guidOf(final int lid)
    {
        return guidByLid.get(lid);
    }

    /**
     * The path records from {@code endpoint} (the section whose GUID and base LID are the endpoint's)
     * to every reachable destination whose GUID is known, built as ibacm builds them.
     */
    public List<byte[]> pathsFrom(final AcmEndpoint endpoint)
    {
        final List<byte[]> paths = new ArrayList<>();
        for (final Section section : sections)
        {
            if (section.portGuid() != endpoint.gid().interfaceId() || section.baseLid() != endpoint.lid())
            {
                continue;
            }
            for (final Destination destination : section.destinations())
            {
                final Long guid = guidByLid.get(destination.dlid());
                if (guid == null)
                {
                    continue;
                }
                final Gid dgid = new Gid(endpoint.gid().subnetPrefix(), guid);
                final int lifetime = destination.dlid() == endpoint.lid() ? 0 : DEFAULT_PACKET_LIFETIME;
                paths.add(PathRecordTemplate.preloaded(endpoint, dgid, destination.dlid(), destination.sl(),
                    destination.mtu(), destination.rate(), lifetime));
            }
            break;
        }
        return paths;
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.files.text.BoundedTextFile;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.protocol.sa.RateCode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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
 * section headers, as ibacm does. Lines that are neither are skipped; a bad value is an error (see
 * {@link #parse(List, String)}).
 */
public final class OpenSmPathDump
{
    /** Compiled once, not for every line as {@code String.matches} would. */
    private static final Pattern HEX_NUMBER = Pattern.compile("(0[xX])?[0-9A-Fa-f]+");
    private static final Pattern GUID_DIGITS = Pattern.compile("[0-9A-Fa-f]{1,16}");
    private static final Pattern COLON = Pattern.compile(":");

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

    /** Reads {@code file} within {@link BoundedTextFile#DATA_MAX_BYTES}, as strict UTF-8. */
    public static OpenSmPathDump read(final Path file) throws IOException
    {
        return parse(BoundedTextFile.readLines(file, BoundedTextFile.DATA_MAX_BYTES), file.toString());
    }

    /** As {@link #parse(List, String)} for lines with no file name. */
    public static OpenSmPathDump parse(final List<String> lines)
    {
        return parse(lines, "path dump");
    }

    /**
     * Parses a dump. Blank lines, comments and lines that are neither a section header nor a
     * {@code LID : SL : MTU : RATE} line (OpenSM's own headings) are skipped; a header or a route line
     * with a value outside its rule (a GUID that is not hex, a LID outside 1..0xbfff, an SL above 15, an
     * MTU or rate code IBA does not define) is an {@link IllegalArgumentException} naming
     * {@code source}, the line and the rule, where ibacm would take whatever its {@code strtoul} left.
     */
    public static OpenSmPathDump parse(final List<String> lines, final String source)
    {
        final List<Section> sections = new ArrayList<>();
        final Map<Integer, Long> guidByLid = new HashMap<>();
        List<Destination> current = null;
        int number = 0;
        for (final String raw : lines)
        {
            number++;
            final String where = source + ":" + number;
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            if (line.startsWith("Channel Adapter ") || line.startsWith("Switch ") || line.startsWith("Router "))
            {
                final String rest = line.startsWith("Channel Adapter ") ? line.substring(16) : line.substring(line.indexOf(' ') + 1);
                final int comma = rest.indexOf(',');
                final int base = rest.indexOf("base LID ");
                if (comma < 0 || base < 0)
                {
                    throw new IllegalArgumentException(where + ": a section header is 'TYPE GUID, base LID N, \"name\", "
                        + "port P', got '" + line + "'");
                }
                final int lidEnd = rest.indexOf(',', base);
                final long guid = guid(rest.substring(0, comma).trim(), where);
                final int lid = lid(rest.substring(base + 9, lidEnd < 0 ? rest.length() : lidEnd).trim(), where, "base LID");
                guidByLid.putIfAbsent(lid, guid);
                current = new ArrayList<>();
                sections.add(new Section(guid, lid, current));
                continue;
            }
            final String[] fields = COLON.split(line);
            if (fields.length < 2 || !HEX_NUMBER.matcher(fields[0].trim()).matches())
            {
                continue; // OpenSM's headings and anything else that is no route line
            }
            if (current == null)
            {
                throw new IllegalArgumentException(where + ": route line before any section header");
            }
            final int dlid = lid(fields[0].trim(), where, "LID");
            if (fields.length == 2 && "UNREACHABLE".equals(fields[1].trim()))
            {
                continue;
            }
            if (fields.length != 4)
            {
                throw new IllegalArgumentException(where + ": a route line is 'LID : SL : MTU : RATE' or 'LID : "
                    + "UNREACHABLE', got '" + line + "'");
            }
            final int sl = value(fields[1].trim(), where, "SL", 0, 15);
            final int mtu = value(fields[2].trim(), where, "MTU code", MtuCode.MTU_256.code(), MtuCode.MTU_4096.code());
            final int rate = value(fields[3].trim(), where, "rate code", RateCode.MIN_CODE, RateCode.MAX_CODE);
            current.add(new Destination(dlid, sl, mtu, rate));
        }
        return new OpenSmPathDump(List.copyOf(sections), guidByLid);
    }

    private static long guid(final String text, final String where)
    {
        final String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (!GUID_DIGITS.matcher(digits).matches())
        {
            throw new IllegalArgumentException(where + ": GUID '" + text + "' is not 1 to 16 hex digits");
        }
        return Long.parseUnsignedLong(digits, 16);
    }

    private static int lid(final String text, final String where, final String what)
    {
        return value(text, where, what, 1, AcmEndpointFile.MAX_UNICAST_LID);
    }

    private static int value(final String text, final String where, final String what, final int min, final int max)
    {
        final long number;
        try
        {
            number = Long.decode(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": " + what + " '" + text + "' is not a number");
        }
        if (number < min || number > max)
        {
            throw new IllegalArgumentException(where + ": " + what + " " + text + " is outside " + min + ".." + max);
        }
        return (int)number;
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

package dev.rdmacm.protocol;

import java.util.regex.Pattern;

/**
 * The IPv6 text form of 16 bytes, written and read exactly as glibc's {@code inet_ntop} and
 * {@code inet_pton} do, because GIDs are printed that way by {@code ip}, {@code saquery} and
 * {@code ib_acme}: the leftmost longest run of two or more zero groups becomes {@code ::}, and
 * {@code ::a.b.c.d} / {@code ::ffff:a.b.c.d} keep their dotted IPv4 tail.
 */
public final class Ipv6Text
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** Compiled once: {@code String.split} compiles a two-character separator for every call. */
    private static final Pattern DOUBLE_COLON = Pattern.compile("::");
    private static final Pattern COLON = Pattern.compile(":");
    private static final Pattern DOT = Pattern.compile("\\.");

    private Ipv6Text()
    {
    }

    public static String format(final byte[] address)
    {
        final int[] groups = new int[8];
        for (int i = 0; i < 8; i++)
        {
            groups[i] = ((address[2 * i] & 0xff) << 8) | (address[2 * i + 1] & 0xff);
        }
        int bestBase = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; )
        {
            if (groups[i] != 0)
            {
                i++;
                continue;
            }
            int end = i;
            while (end < 8 && groups[end] == 0)
            {
                end++;
            }
            if (end - i > bestLength)
            {
                bestBase = i;
                bestLength = end - i;
            }
            i = end;
        }
        if (bestLength < 2)
        {
            bestBase = -1;
        }

        final StringBuilder text = new StringBuilder(46);
        for (int i = 0; i < 8; i++)
        {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLength)
            {
                if (i == bestBase)
                {
                    text.append(':');
                }
                continue;
            }
            if (i != 0)
            {
                text.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLength == 6 || (bestLength == 5 && groups[5] == 0xffff)))
            {
                text.append(address[12] & 0xff).append('.').append(address[13] & 0xff).append('.')
                    .append(address[14] & 0xff).append('.').append(address[15] & 0xff);
                return text.toString();
            }
            appendHex(text, groups[i]);
        }
        if (bestBase >= 0 && bestBase + bestLength == 8)
        {
            text.append(':');
        }
        return text.toString();
    }

    /**
     * Parses IPv6 text (with {@code ::} and an optional dotted IPv4 tail) into 16 bytes.
     *
     * @param what names the input in the error message, e.g. "GID" or "--dgid".
     * @throws IllegalArgumentException naming the input and the rule it breaks.
     */
    public static byte[] parse(final String text, final String what)
    {
        if (text == null || text.isEmpty())
        {
            throw new IllegalArgumentException(what + ": empty, expected an IPv6-style address such as fe80::10:4");
        }
        final byte[] bytes = new byte[16];
        final String[] halves = DOUBLE_COLON.split(text, -1);
        if (halves.length > 2)
        {
            throw invalid(text, what, "'::' may appear only once");
        }
        final int[] head = groups(halves[0], text, what);
        if (halves.length == 1)
        {
            if (head.length != 8)
            {
                throw invalid(text, what, "needs 8 groups of up to 4 hex digits, or '::'");
            }
            put(bytes, 0, head);
            return bytes;
        }
        final int[] tail = groups(halves[1], text, what);
        if (head.length + tail.length > 7)
        {
            throw invalid(text, what, "too many groups for '::'");
        }
        put(bytes, 0, head);
        put(bytes, 8 - tail.length, tail);
        return bytes;
    }

    private static int[] groups(final String part, final String text, final String what)
    {
        if (part.isEmpty())
        {
            return new int[0];
        }
        final String[] fields = COLON.split(part, -1);
        final boolean dottedTail = fields[fields.length - 1].indexOf('.') >= 0;
        final int[] groups = new int[fields.length + (dottedTail ? 1 : 0)];
        for (int i = 0; i < fields.length; i++)
        {
            final String field = fields[i];
            if (i == fields.length - 1 && dottedTail)
            {
                final int ipv4 = parseIpv4(field, text, what);
                groups[i] = ipv4 >>> 16;
                groups[i + 1] = ipv4 & 0xffff;
                continue;
            }
            if (field.isEmpty() || field.length() > 4)
            {
                throw invalid(text, what, "each group holds 1 to 4 hex digits");
            }
            int value = 0;
            for (int c = 0; c < field.length(); c++)
            {
                final int digit = Character.digit(field.charAt(c), 16);
                if (digit < 0)
                {
                    throw invalid(text, what, "'" + field.charAt(c) + "' is not a hex digit");
                }
                value = (value << 4) | digit;
            }
            groups[i] = value;
        }
        return groups;
    }

    private static int parseIpv4(final String dotted, final String text, final String what)
    {
        final String[] octets = DOT.split(dotted, -1);
        if (octets.length != 4)
        {
            throw invalid(text, what, "an IPv4 tail needs 4 decimal octets");
        }
        int value = 0;
        for (final String octet : octets)
        {
            if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(Character::isDigit))
            {
                throw invalid(text, what, "IPv4 octets are decimal numbers 0-255");
            }
            final int number = Integer.parseInt(octet);
            if (number > 255)
            {
                throw invalid(text, what, "IPv4 octets are decimal numbers 0-255");
            }
            value = (value << 8) | number;
        }
        return value;
    }

    private static void put(final byte[] bytes, final int firstGroup, final int[] groups)
    {
        for (int i = 0; i < groups.length; i++)
        {
            bytes[2 * (firstGroup + i)] = (byte)(groups[i] >>> 8);
            bytes[2 * (firstGroup + i) + 1] = (byte)groups[i];
        }
    }

    private static void appendHex(final StringBuilder text, final int group)
    {
        boolean started = false;
        for (int shift = 12; shift >= 0; shift -= 4)
        {
            final int digit = (group >>> shift) & 0xf;
            if (digit != 0 || started || shift == 0)
            {
                text.append(HEX[digit]);
                started = true;
            }
        }
    }

    private static IllegalArgumentException invalid(final String text, final String what, final String rule)
    {
        return new IllegalArgumentException(what + " '" + text + "' is not a valid IPv6-style address: " + rule);
    }
}

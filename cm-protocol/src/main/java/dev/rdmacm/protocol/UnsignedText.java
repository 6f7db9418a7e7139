package dev.rdmacm.protocol;

/**
 * The text form of unsigned values that rdma-core tools accept ({@code strtoul} with base 0, minus
 * octal): decimal digits, or {@code 0x} followed by hexadecimal digits.
 */
final class UnsignedText
{
    private UnsignedText()
    {
    }

    /** Parses a 16-bit value, naming {@code what} and the rule in the error. */
    static int parse16(final String what, final String text)
    {
        return (int)parse(what, text, 0xffffL, "a 16-bit value: 0-65535 or 0x0-0xffff");
    }

    /** Parses a 64-bit value, naming {@code what} and the rule in the error. */
    static long parse64(final String what, final String text)
    {
        return parse(what, text, -1L, "a 64-bit value: decimal or 0x followed by up to 16 hex digits");
    }

    private static long parse(final String what, final String text, final long max, final String rule)
    {
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException(what + ": empty, expected " + rule);
        }
        final String trimmed = text.strip();
        final boolean hex = trimmed.startsWith("0x") || trimmed.startsWith("0X");
        final String digits = hex ? trimmed.substring(2) : trimmed;
        final long value;
        try
        {
            if (digits.isEmpty() || digits.charAt(0) == '+' || digits.charAt(0) == '-')
            {
                throw new NumberFormatException();
            }
            value = Long.parseUnsignedLong(digits, hex ? 16 : 10);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(what + " '" + text + "' is not " + rule);
        }
        if (max != -1L && Long.compareUnsigned(value, max) > 0)
        {
            throw new IllegalArgumentException(what + " '" + text + "' is out of range: expected " + rule);
        }
        return value;
    }
}

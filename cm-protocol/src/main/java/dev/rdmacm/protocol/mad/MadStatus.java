package dev.rdmacm.protocol.mad;

/**
 * The 16-bit status word of the MAD common header (IBA 13.4.7, Table 114).
 * <pre>
 *   15            8 7     5 4   2 1 0
 *  +---------------+-------+-----+-+-+
 *  | ClassSpecific | resvd |Inval|R|B|
 *  +---------------+-------+-----+-+-+
 * </pre>
 * B = busy, R = redirect required, Inval = the common invalid-field code (0-7), ClassSpecific = a code
 * each class defines (the SA's are in {@code SaStatus}).
 */
public final class MadStatus
{
    public static final int SUCCESS = 0x0000;
    public static final int BUSY = 0x0001;
    public static final int REDIRECT = 0x0002;
    public static final int INVALID_FIELD_MASK = 0x001c;
    public static final int INVALID_FIELD_SHIFT = 2;
    public static final int CLASS_SPECIFIC_MASK = 0xff00;
    public static final int CLASS_SPECIFIC_SHIFT = 8;

    /** Invalid-field code 0: no invalid field. */
    public static final int FIELD_VALID = 0;
    /** Invalid-field code 1: bad base or class version. */
    public static final int FIELD_BAD_VERSION = 1;
    /** Invalid-field code 2: method not supported. */
    public static final int FIELD_METHOD_NOT_SUPPORTED = 2;
    /** Invalid-field code 3: method/attribute combination not supported. */
    public static final int FIELD_METHOD_ATTRIBUTE_NOT_SUPPORTED = 3;
    /** Invalid-field code 7: one or more fields of the attribute or its modifier are invalid. */
    public static final int FIELD_INVALID_VALUE = 7;

    private static final String[] INVALID_FIELD_NAMES = {
        "VALID", "BAD_VERSION", "METHOD_NOT_SUPPORTED", "METHOD_ATTRIBUTE_NOT_SUPPORTED",
        "RESERVED_4", "RESERVED_5", "RESERVED_6", "INVALID_VALUE",
    };

    private MadStatus()
    {
    }

    public static boolean isBusy(final int status)
    {
        return (status & BUSY) != 0;
    }

    public static boolean isRedirect(final int status)
    {
        return (status & REDIRECT) != 0;
    }

    /** The invalid-field code 0-7 from bits 2-4. */
    public static int invalidField(final int status)
    {
        return (status & INVALID_FIELD_MASK) >>> INVALID_FIELD_SHIFT;
    }

    /** The class-specific code from bits 8-15. */
    public static int classSpecific(final int status)
    {
        return (status & CLASS_SPECIFIC_MASK) >>> CLASS_SPECIFIC_SHIFT;
    }

    /** A status word with the given invalid-field code and class-specific code. */
    public static int of(final int invalidField, final int classSpecific)
    {
        return ((invalidField << INVALID_FIELD_SHIFT) & INVALID_FIELD_MASK) |
            ((classSpecific << CLASS_SPECIFIC_SHIFT) & CLASS_SPECIFIC_MASK);
    }

    /** The name of an invalid-field code 0-7, e.g. {@code METHOD_NOT_SUPPORTED}. */
    public static String invalidFieldName(final int code)
    {
        return code >= 0 && code < INVALID_FIELD_NAMES.length ? INVALID_FIELD_NAMES[code] : "INVALID_FIELD_" + code;
    }

    /**
     * A name for any status word: {@code SUCCESS}, or its set parts joined with {@code |}, e.g.
     * {@code BUSY|METHOD_NOT_SUPPORTED|CLASS_SPECIFIC(0x03)}; reserved bits 5-7 are shown as a hex mask.
     */
    public static String name(final int status)
    {
        return name(status, "CLASS_SPECIFIC(0x%02x)");
    }

    /**
     * As {@link #name(int)}, with the class-specific code printed through {@code classSpecificFormat}
     * (a {@link String#format} pattern with one argument: the code), so that a class such as the SA can
     * substitute its own name.
     */
    public static String name(final int status, final String classSpecificFormat)
    {
        final int word = status & 0xffff;
        if (word == SUCCESS)
        {
            return "SUCCESS";
        }
        final StringBuilder text = new StringBuilder();
        if (isBusy(word))
        {
            text.append("BUSY");
        }
        if (isRedirect(word))
        {
            separate(text).append("REDIRECT");
        }
        if (invalidField(word) != FIELD_VALID)
        {
            separate(text).append(invalidFieldName(invalidField(word)));
        }
        if ((word & 0x00e0) != 0)
        {
            separate(text).append(String.format("RESERVED(0x%04x)", word & 0x00e0));
        }
        if (classSpecific(word) != 0)
        {
            separate(text).append(String.format(classSpecificFormat, classSpecific(word)));
        }
        return text.toString();
    }

    private static StringBuilder separate(final StringBuilder text)
    {
        return text.isEmpty() ? text : text.append('|');
    }
}

package dev.rdmacm.protocol.sa;

/** The IBA path MTU codes (IBA 15.2.5.16 / {@code enum ibv_mtu}): 1-5 for 256-4096 bytes. */
public enum MtuCode
{
    MTU_256(1, 256),
    MTU_512(2, 512),
    MTU_1024(3, 1024),
    MTU_2048(4, 2048),
    MTU_4096(5, 4096);

    private static final MtuCode[] BY_CODE = values();

    private final int code;
    private final int bytes;

    MtuCode(final int code, final int bytes)
    {
        this.code = code;
        this.bytes = bytes;
    }

    public int code()
    {
        return code;
    }

    public int bytes()
    {
        return bytes;
    }

    public static boolean isValid(final int code)
    {
        return code >= 1 && code <= BY_CODE.length;
    }

    /** @throws IllegalArgumentException naming the code and the valid range. */
    public static MtuCode fromCode(final int code)
    {
        if (!isValid(code))
        {
            throw new IllegalArgumentException("MTU code " + code + " is not 1-5 (256-4096 bytes)");
        }
        return BY_CODE[code - 1];
    }

    /** @throws IllegalArgumentException naming the size and the valid sizes. */
    public static MtuCode fromBytes(final int bytes)
    {
        for (final MtuCode mtu : BY_CODE)
        {
            if (mtu.bytes == bytes)
            {
                return mtu;
            }
        }
        throw new IllegalArgumentException("MTU " + bytes + " bytes is not one of 256, 512, 1024, 2048, 4096");
    }

    /** Parses a size in bytes such as {@code 2048}, as {@code ibv_devinfo} and {@code saquery} print it. */
    public static MtuCode parse(final String text)
    {
        try
        {
            return fromBytes(Integer.parseInt(text.strip()));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(
                "MTU '" + text + "' is not a number of bytes (256, 512, 1024, 2048 or 4096)");
        }
    }

    /** {@code "4 (2048)"}, or {@code "0 (reserved)"} for a code without a size. */
    public static String describe(final int code)
    {
        return code + (isValid(code) ? " (" + BY_CODE[code - 1].bytes + ")" : " (reserved)");
    }
}

package dev.rdmacm.protocol.sa;

/**
 * The 2-bit selector above the MTU, rate and packet-lifetime codes of a PathRecord (IBA 15.2.5.16):
 * how the SA compares the code in the query with the paths it knows.
 */
public enum Selector
{
    /** Greater than the given value. */
    GREATER_THAN(0, ">"),
    /** Less than the given value. */
    LESS_THAN(1, "<"),
    /** Exactly the given value. */
    EXACTLY(2, "="),
    /** The largest available MTU or rate; for packet lifetime, the smallest available. */
    LARGEST_AVAILABLE(3, "best");

    /** The selector occupies the top two bits of its byte. */
    public static final int SHIFT = 6;
    public static final int CODE_MASK = 0x3f;

    private static final Selector[] BY_CODE = values();

    private final int code;
    private final String symbol;

    Selector(final int code, final String symbol)
    {
        this.code = code;
        this.symbol = symbol;
    }

    public int code()
    {
        return code;
    }

    /** {@code >}, {@code <}, {@code =} or {@code best}. */
    public String symbol()
    {
        return symbol;
    }

    /** The selector of a 2-bit code; every code 0-3 has one. */
    public static Selector fromCode(final int code)
    {
        if (code < 0 || code > 3)
        {
            throw new IllegalArgumentException("selector " + code + " is not a 2-bit code 0-3");
        }
        return BY_CODE[code];
    }

    /** {@code "2 (=)"}: the code and its symbol. */
    public static String describe(final int code)
    {
        return code + " (" + fromCode(code).symbol + ")";
    }
}

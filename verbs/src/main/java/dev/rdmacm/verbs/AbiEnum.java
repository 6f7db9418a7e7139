package dev.rdmacm.verbs;

/**
 * An enum whose constants stand for numbers of the verbs ABI ({@code IBV_PORT_ACTIVE} = 4 ...), each
 * with the name the kernel prints for it in sysfs ({@code 4: ACTIVE}).
 */
public interface AbiEnum
{
    /** The number libibverbs and the kernel use. */
    int value();

    /** The name the kernel prints for it. */
    String text();

    /** The constant of {@code type} standing for {@code value}, or {@code null} when none does. */
    static <E extends Enum<E> & AbiEnum> E ofValue(final Class<E> type, final int value)
    {
        for (final E constant : type.getEnumConstants())
        {
            if (constant.value() == value)
            {
                return constant;
            }
        }
        return null;
    }

    /** The constant of {@code type} whose text is {@code text}, or {@code null} when none is. */
    static <E extends Enum<E> & AbiEnum> E ofText(final Class<E> type, final String text)
    {
        for (final E constant : type.getEnumConstants())
        {
            if (constant.text().equals(text))
            {
                return constant;
            }
        }
        return null;
    }
}

package dev.rdmacm.protocol;

/**
 * The one exception every decoder in this module throws for bytes that break a wire-format rule.
 * <p>
 * The message names the message type, the field, the offending value and the rule, so that a user
 * looking at a capture can find the byte. Nothing else escapes a decoder: no
 * {@link IndexOutOfBoundsException}, no {@link IllegalArgumentException}.
 */
public final class MalformedMessageException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(final String message)
    {
        super(message, null, false, false);
    }

    /**
     * Checks that a message of {@code required} bytes fits in {@code available} bytes.
     *
     * @param what      the message or field being decoded, for the error text.
     * @param available the bytes present.
     * @param required  the bytes the format needs.
     * @throws MalformedMessageException when {@code available < required}.
     */
    public static void requireLength(final String what, final int available, final int required)
    {
        if (available < required)
        {
            throw new MalformedMessageException(
                what + ": " + available + " bytes present, the format needs at least " + required);
        }
    }
}

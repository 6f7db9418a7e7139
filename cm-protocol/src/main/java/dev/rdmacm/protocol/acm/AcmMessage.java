package dev.rdmacm.protocol.acm;

/**
 * Sizes of a whole ibacm client message ({@code struct acm_msg}): a header and up to eight 72-byte
 * entries. Clients receive into a buffer of exactly {@link #MAX_LENGTH} bytes, so no reply to a
 * RESOLVE or PERF_QUERY may be longer; EP_QUERY replies may be (libacm reads them in two parts).
 */
public final class AcmMessage
{
    /** {@code ACM_MSG_DATA_LENGTH}: room for eight entries. */
    public static final int DATA_LENGTH = AcmEpAddrData.LENGTH * 8;
    /** {@code sizeof(struct acm_msg)}. */
    public static final int MAX_LENGTH = AcmHeader.LENGTH + DATA_LENGTH;
    public static final int MAX_ENTRIES = 8;

    private AcmMessage()
    {
    }

    /** The length of a RESOLVE message with {@code entries} address entries. */
    public static int resolveLength(final int entries)
    {
        return AcmHeader.LENGTH + entries * AcmEpAddrData.LENGTH;
    }
}

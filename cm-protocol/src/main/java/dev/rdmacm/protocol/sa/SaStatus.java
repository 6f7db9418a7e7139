package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.mad.MadStatus;

/**
 * The SA's class-specific status codes (IBA 15.2.1.2, Table 187): bits 8-15 of the MAD status word.
 * The constants are the codes themselves (1-8); {@link #toStatusWord(int)} places one in a status word.
 */
public final class SaStatus
{
    public static final int SUCCESS = 0;
    /** ERR_NO_RESOURCES: the SA has no resources to complete the request. */
    public static final int NO_RESOURCES = 1;
    /** ERR_REQ_INVALID: the request had an invalid field or combination of fields. */
    public static final int REQ_INVALID = 2;
    /** ERR_NO_RECORDS: no records matched the query. */
    public static final int NO_RECORDS = 3;
    /** ERR_TOO_MANY_RECORDS: a Get matched more than one record. */
    public static final int TOO_MANY_RECORDS = 4;
    /** ERR_REQ_INVALID_GID: a GID in the request is not valid. */
    public static final int INVALID_GID = 5;
    /** ERR_REQ_INSUFFICIENT_COMPONENTS: the component mask did not select enough components. */
    public static final int INSUF_COMPS = 6;
    /** ERR_REQ_DENIED: the request was refused (e.g. for P_Key or M_Key reasons). */
    public static final int REQ_DENIED = 7;
    /** ERR_REQ_PRIORITY_SUGGESTED: the requested QoS priority cannot be met; a suggestion is returned. */
    public static final int PRI_SUGGESTED = 8;

    private static final String[] NAMES = {
        "SUCCESS", "ERR_NO_RESOURCES", "ERR_REQ_INVALID", "ERR_NO_RECORDS", "ERR_TOO_MANY_RECORDS",
        "ERR_REQ_INVALID_GID", "ERR_REQ_INSUFFICIENT_COMPONENTS", "ERR_REQ_DENIED", "ERR_REQ_PRIORITY_SUGGESTED",
    };

    private SaStatus()
    {
    }

    /** The IBA name of an SA class-specific code, e.g. {@code ERR_NO_RECORDS}; unknown codes as numbers. */
    public static String name(final int code)
    {
        return code >= 0 && code < NAMES.length ? NAMES[code] : "SA_STATUS_" + code;
    }

    /** The SA code in a MAD status word. */
    public static int fromStatusWord(final int status)
    {
        return MadStatus.classSpecific(status);
    }

    /** The MAD status word carrying SA code {@code code}. */
    public static int toStatusWord(final int code)
    {
        return MadStatus.of(MadStatus.FIELD_VALID, code);
    }

    /**
     * A name for a whole SA MAD status word, common bits included, e.g. {@code ERR_NO_RECORDS} or
     * {@code INVALID_VALUE|ERR_REQ_INVALID}.
     */
    public static String describe(final int status)
    {
        return MadStatus.name(status, name(fromStatusWord(status)));
    }
}

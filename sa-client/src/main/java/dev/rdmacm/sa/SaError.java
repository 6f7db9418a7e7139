package dev.rdmacm.sa;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.mad.MadStatus;
import dev.rdmacm.protocol.sa.SaStatus;

/**
 * Why an SA query failed: the SA's class-specific status (IBA 15.2.1.1, table 208), a common MAD
 * status field (IBA 13.4.7), or a local outcome (the deadline, the client closing).
 */
public enum SaError
{
    /** ERR_NO_RESOURCES (1): the SA is out of resources. */
    NO_RESOURCES("ENOMEM"),
    /** ERR_REQ_INVALID (2): the request is not valid (e.g. GetMulti without RMPP). */
    REQ_INVALID("EINVAL"),
    /** ERR_NO_RECORDS (3): nothing matches. */
    NO_RECORDS("ENODATA"),
    /** ERR_TOO_MANY_RECORDS (4): a Get matched more than one record. */
    TOO_MANY_RECORDS("E2BIG"),
    /** ERR_REQ_INVALID_GID (5): a GID in the request is unknown or invalid. */
    INVALID_GID("EINVAL"),
    /** ERR_REQ_INSUFFICIENT_COMPONENTS (6): the component mask does not say enough. */
    INSUF_COMPS("EINVAL"),
    /** ERR_REQ_DENIED (7). */
    REQ_DENIED("EACCES"),
    /** ERR_REQ_PRIORITY_SUGGESTED (8). */
    PRI_SUGGESTED("EINVAL"),
    /** A class-specific status this client does not know. */
    UNKNOWN_SA_STATUS("EIO"),
    /** The common status field: bad version. */
    BAD_VERSION("EPROTONOSUPPORT"),
    /** The common status field: method not supported. */
    METHOD_NOT_SUPPORTED("EOPNOTSUPP"),
    /** The common status field: method/attribute combination not supported. */
    METHOD_ATTRIBUTE_NOT_SUPPORTED("EOPNOTSUPP"),
    /** The common status field: a field has an invalid value. */
    INVALID_FIELD_VALUE("EINVAL"),
    /** The sender of a multi-packet response stopped or aborted it. */
    RMPP_ABORTED("ECONNABORTED"),
    /** No acceptable answer by the query's deadline. */
    TIMED_OUT("ETIMEDOUT"),
    /** The client was closed with the query outstanding. */
    CLOSED("ECANCELED"),
    /** The transport failed (socket closed, device gone). */
    TRANSPORT_FAILED("EIO");

    private final String errno;
    /** Looked up once: a failed query is not worth a search of the errno table. */
    private final int errnoNumber;

    SaError(final String errno)
    {
        this.errno = errno;
        this.errnoNumber = Errno.number(errno);
    }

    /** The errno name librdmacm users would see for this outcome (ETIMEDOUT, ENODATA...). */
    public String errno()
    {
        return errno;
    }

    /** {@link #errno()} as its number (ETIMEDOUT: 110). */
    int errnoNumber()
    {
        return errnoNumber;
    }

    /** The SA class-specific status code (bits 8..15 of the MAD status) as an error. */
    static SaError ofSaStatus(final int code)
    {
        return switch (code)
        {
            case SaStatus.NO_RESOURCES -> NO_RESOURCES;
            case SaStatus.REQ_INVALID -> REQ_INVALID;
            case SaStatus.NO_RECORDS -> NO_RECORDS;
            case SaStatus.TOO_MANY_RECORDS -> TOO_MANY_RECORDS;
            case SaStatus.INVALID_GID -> INVALID_GID;
            case SaStatus.INSUF_COMPS -> INSUF_COMPS;
            case SaStatus.REQ_DENIED -> REQ_DENIED;
            case SaStatus.PRI_SUGGESTED -> PRI_SUGGESTED;
            default -> UNKNOWN_SA_STATUS;
        };
    }

    /** The common invalid-field code (bits 2..4 of the MAD status) as an error. */
    static SaError ofInvalidField(final int code)
    {
        return switch (code)
        {
            case MadStatus.FIELD_BAD_VERSION -> BAD_VERSION;
            case MadStatus.FIELD_METHOD_NOT_SUPPORTED -> METHOD_NOT_SUPPORTED;
            case MadStatus.FIELD_METHOD_ATTRIBUTE_NOT_SUPPORTED -> METHOD_ATTRIBUTE_NOT_SUPPORTED;
            default -> INVALID_FIELD_VALUE;
        };
    }
}

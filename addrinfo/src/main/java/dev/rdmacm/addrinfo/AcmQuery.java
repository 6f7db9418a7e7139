package dev.rdmacm.addrinfo;

/**
 * The content of the ACM RESOLVE request librdmacm builds (reference §3.2), before wire encoding.
 *
 * @param source      the result's IP source address, or null: a {@code SOURCE} endpoint entry.
 * @param destination the result's IP destination address, or null: a {@code DEST} endpoint entry.
 * @param noDelay     {@code ACM_FLAGS_NODELAY} on the destination entry: the hints had
 *                    {@code RAI_NUMERICHOST} or {@code RAI_NOROUTE}.
 * @param pathRecord  the 64-byte {@code ibv_path_record} of a {@code PATH} entry (from the hint route,
 *                    SGID/DGID overwritten from AF_IB addresses), or null when there is no such entry.
 */
public record AcmQuery(RdmaSockaddr source, RdmaSockaddr destination, boolean noDelay, byte[] pathRecord)
{
    public AcmQuery
    {
        pathRecord = pathRecord == null ? null : pathRecord.clone();
    }

    @Override
    public byte[] pathRecord()
    {
        return pathRecord == null ? null : pathRecord.clone();
    }
}

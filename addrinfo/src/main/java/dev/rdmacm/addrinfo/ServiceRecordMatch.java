package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;

/**
 * One ServiceRecord found for {@link RaiFlags#SA}, with the local port it was found through.
 *
 * @param serviceId  the record's ServiceID.
 * @param serviceGid the record's ServiceGID: where the service runs.
 * @param pkey       the record's ServiceP_Key.
 * @param localGid   the GID (index 0) of the local port that asked.
 */
public record ServiceRecordMatch(long serviceId, Gid serviceGid, PKey pkey, Gid localGid)
{
}

package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;

/**
 * The local end of a MAD transport: our LID, port GUID and GID (index 0), and where the SM is (its LID
 * and SL, from PortInfo's MasterSMLID and MasterSMSL).
 */
public record LocalPort(String name, int lid, long portGuid, Gid gid, int smLid, int smSl)
{
}

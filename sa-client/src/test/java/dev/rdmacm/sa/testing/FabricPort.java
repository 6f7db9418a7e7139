package dev.rdmacm.sa.testing;

import dev.rdmacm.protocol.Gid;

/**
 * An HCA port of the simulated fabric as OpenSM's SA reports it (NodeRecord): the ibsim node name to
 * attach as, the LID OpenSM assigned, the port GUID and the link-local GID built from it.
 */
public record FabricPort(String node, int lid, long portGuid)
{
    public Gid gid()
    {
        return new Gid(Gid.LINK_LOCAL_PREFIX, portGuid);
    }
}

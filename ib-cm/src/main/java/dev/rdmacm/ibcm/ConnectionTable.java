package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.Gid;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's indexes, ib_cm's global tables (cm.c {@code struct ib_cm}):
 * <ul>
 *   <li>by local comm ID ({@code local_id_table}): where every MAD but REQ and SIDR_REQ is delivered,
 *   by the MAD's RemoteCommunicationID;</li>
 *   <li>listeners by Service ID ({@code listen_service_table}; one engine serves one device, so the
 *   kernel's device key is implied);</li>
 *   <li>by remote comm ID and remote CA GUID ({@code remote_id_table}): duplicate REQs and REPs;</li>
 *   <li>by remote QPN and remote CA GUID ({@code remote_qp_table}): stale connections, a REQ or REP
 *   naming a QP that a live connection already talks to;</li>
 *   <li>SIDR requests being served by remote request ID and GID ({@code remote_sidr_table}).</li>
 * </ul>
 * A connection leaves the two remote tables when it enters TIMEWAIT or goes back to IDLE
 * ({@code cm_remove_remote}), as in the kernel.
 */
final class ConnectionTable
{
    record RemoteKey(long value, long caGuid)
    {
    }

    record SidrKey(long requestId, Gid gid)
    {
    }

    private final Long2ObjectHashMap<IbCmConnection> byLocalId = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<IbCmConnection> listeners = new Long2ObjectHashMap<>();
    private final Map<RemoteKey, IbCmConnection> byRemoteId = new HashMap<>();
    private final Map<RemoteKey, IbCmConnection> byRemoteQpn = new HashMap<>();
    private final Map<SidrKey, IbCmConnection> sidrByRemote = new HashMap<>();

    void add(final IbCmConnection connection)
    {
        byLocalId.put(connection.localCommId(), connection);
    }

    void remove(final IbCmConnection connection)
    {
        byLocalId.remove(connection.localCommId());
    }

    /** cm.c {@code cm_acquire_id}: the connection with this local ID whose remote ID is {@code remoteId}. */
    IbCmConnection acquire(final long localId, final long remoteId)
    {
        final IbCmConnection connection = byLocalId.get(localId);
        return connection != null && connection.remoteCommId() == remoteId ? connection : null;
    }

    IbCmConnection byLocalId(final long localId)
    {
        return byLocalId.get(localId);
    }

    int size()
    {
        return byLocalId.size();
    }

    List<IbCmConnection> connections()
    {
        return new ArrayList<>(byLocalId.values());
    }

    /** Returns false when the Service ID has a listener already (ib_cm_listen's EBUSY). */
    boolean addListener(final long serviceId, final IbCmConnection listener)
    {
        return listeners.putIfAbsent(serviceId, listener) == null;
    }

    void removeListener(final long serviceId)
    {
        listeners.remove(serviceId);
    }

    IbCmConnection listener(final long serviceId)
    {
        return listeners.get(serviceId);
    }

    /** {@code cm_insert_remote_id}: null when inserted, else the connection that holds the key. */
    IbCmConnection insertRemoteId(final RemoteKey key, final IbCmConnection connection)
    {
        return byRemoteId.putIfAbsent(key, connection);
    }

    IbCmConnection byRemoteId(final RemoteKey key)
    {
        return byRemoteId.get(key);
    }

    /** {@code cm_insert_remote_qpn}: null when inserted, else the connection that holds the key. */
    IbCmConnection insertRemoteQpn(final RemoteKey key, final IbCmConnection connection)
    {
        return byRemoteQpn.putIfAbsent(key, connection);
    }

    IbCmConnection byRemoteQpn(final RemoteKey key)
    {
        return byRemoteQpn.get(key);
    }

    void removeRemote(final RemoteKey remoteId, final RemoteKey remoteQpn, final IbCmConnection connection)
    {
        if (remoteId != null)
        {
            byRemoteId.remove(remoteId, connection);
        }
        if (remoteQpn != null)
        {
            byRemoteQpn.remove(remoteQpn, connection);
        }
    }

    IbCmConnection insertSidr(final SidrKey key, final IbCmConnection connection)
    {
        return sidrByRemote.putIfAbsent(key, connection);
    }

    boolean sidrBeingServed(final SidrKey key)
    {
        return sidrByRemote.containsKey(key);
    }

    void removeSidr(final SidrKey key, final IbCmConnection connection)
    {
        if (key != null)
        {
            sidrByRemote.remove(key, connection);
        }
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A local endpoint: one (device, port, P_Key) with its port GID and LID and the addresses that name
 * it, as ibacm's {@code acmc_ep}. It owns its route table (destination GID or LID to path) and the
 * queue that keeps at most {@code sa_depth} SA queries outstanding for it. The queue holds at most
 * {@code sa_queue_depth} routes: a flood of misses to new destinations is refused at that bound
 * instead of growing the table (ibacm's queue is bounded only by its memory).
 */
public final class AcmEndpoint
{
    /** At most this many addresses per endpoint, so that an EP_QUERY reply has a known bound. */
    public static final int MAX_ADDRESSES = 16;

    private final int index;
    private final String deviceName;
    private final int portNum;
    private final int physPortCnt;
    private final int pkey;
    private final Gid gid;
    private final int lid;
    private final List<AcmAddress> addresses = new ArrayList<>();
    private final AcmCounters counters = new AcmCounters();
    final Map<AcmAddress, AcmRoute> routes = new HashMap<>();
    /** Routes waiting for an SA slot; at most {@code sa_queue_depth} of them (AcmOptions). */
    final ArrayDeque<AcmRoute> saQueue = new ArrayDeque<>();
    int saOutstanding;
    /** Address lookups out for this endpoint; at most {@code sa_queue_depth} of them. */
    int addressQueries;

    public AcmEndpoint(final int index, final String deviceName, final int portNum, final int physPortCnt,
        final int pkey, final Gid gid, final int lid)
    {
        this.index = index;
        this.deviceName = deviceName;
        this.portNum = portNum;
        this.physPortCnt = physPortCnt;
        this.pkey = pkey;
        this.gid = gid;
        this.lid = lid;
    }

    void addAddress(final AcmAddress address, final String where)
    {
        if (addresses.size() == MAX_ADDRESSES)
        {
            throw new IllegalArgumentException(where + ": endpoint " + deviceName + " port " + portNum
                + " pkey 0x" + Integer.toHexString(pkey) + " already has " + MAX_ADDRESSES + " addresses");
        }
        if (!addresses.contains(address))
        {
            addresses.add(address);
        }
    }

    /** 1-based, in configuration order, as EP_QUERY and PERF_QUERY number endpoints. */
    public int index()
    {
        return index;
    }

    public String deviceName()
    {
        return deviceName;
    }

    public int portNum()
    {
        return portNum;
    }

    public int physPortCnt()
    {
        return physPortCnt;
    }

    public int pkey()
    {
        return pkey;
    }

    public Gid gid()
    {
        return gid;
    }

    public int lid()
    {
        return lid;
    }

    /** The device GUID reported by EP_QUERY: the port GUID (the GID's interface ID). */
    public long devGuid()
    {
        return gid.interfaceId();
    }

    public List<AcmAddress> addresses()
    {
        return List.copyOf(addresses);
    }

    public boolean hasAddress(final AcmAddress address)
    {
        return addresses.contains(address);
    }

    public AcmCounters counters()
    {
        return counters;
    }

    @Override
    public String toString()
    {
        return "endpoint " + index + " (" + deviceName + " port " + portNum + " pkey 0x" + Integer.toHexString(pkey)
            + " gid " + gid + " lid " + lid + ")";
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.acm.AcmStatus;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The protocol logic of the ACM service: RESOLVE (address to path, path by GID or LID, SA query),
 * PERF_QUERY and EP_QUERY, with the address cache, each endpoint's route table and SA queue, and the
 * counters. Single-threaded: only the server's selector thread calls it; lookups complete through
 * {@link #completions}, which the duty cycle drains ({@link #doWork()}), and time out on the event-loop
 * kit's {@link DeadlineTimers}, on the server's {@link NanoClock}.
 * <p>
 * Every request gets exactly one reply whose {@code length} is the number of bytes sent. Success
 * replies to RESOLVE are built as ibacm's acmp provider builds them (request header, opcode
 * unchanged, data zeroed, PATH entry with flags 0x2b, then the chosen SOURCE entry when the client
 * gave none); error replies as ibacm's core does (opcode with ACK, status, data zeroed, length 16).
 * Status rules follow {@code acm_svr_verify_resolve}, {@code acm_svr_resolve_path} and
 * {@code acm_svr_query_path}; where ibacm would drop or disconnect (bad version, unknown opcode, a
 * length it cannot frame) this service answers EINVAL instead, because it never closes a client.
 */
public final class AcmService
{
    public static final String PROVIDER_NAME = "rdmacm-java";

    private final AcmOptions options;
    /** Changed only on the server thread (a removed device's endpoints go); read by {@link #endpoints()} anywhere. */
    private final List<AcmEndpoint> endpoints;
    private final Map<AcmAddress, AcmEndpoint> endpointByAddress = new HashMap<>();
    private final AcmGidLookup addressResolver;
    private final AcmPathQuerier pathQuerier;
    private final AcmLog log;
    private static final int DEADLINE_EXPIRY_LIMIT = 1024;
    /** How often a full queue is logged: once, then at most once per 10 s with the count held back. */
    static final long OVERFLOW_LOG_INTERVAL_NS = 10_000_000_000L;

    private final NanoClock clock;
    private final Runnable wakeup;
    private final AcmCounters counters = new AcmCounters();
    private final AcmLogThrottle overflowLog;
    private final AcmEndpointQueries endpointQueries;
    private final Map<AcmAddress, AcmAddressEntry> addresses = new HashMap<>();
    /** The SA deadlines of the routes and addresses being queried. */
    private final DeadlineTimers<AcmLookup<?>> deadlines;
    private final DeadlineTimers.Expiry<AcmLookup<?>> onDeadline = this::onDeadline;
    private final Queue<Runnable> completions = new ConcurrentLinkedQueue<>();
    private final long addrLifetimeNs;
    private final long routeLifetimeNs;

    private final AcmHeader header = new AcmHeader();
    private final AcmHeader replyHeader = new AcmHeader();
    private final AcmEpAddrData entry = new AcmEpAddrData();
    private final AcmEpAddrData replyEntry = new AcmEpAddrData();
    private final IbvPathRecord pathView = new IbvPathRecord();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[AcmConnection.MAX_REPLY_LENGTH]);
    private final UnsafeBuffer chosenSource = new UnsafeBuffer(new byte[AcmEpAddrData.LENGTH]);
    private long requests;

    /**
     * @param clock  cache lifetimes and SA deadlines are measured on it.
     * @param wakeup called after a completion is queued from another thread, to wake the selector.
     */
    public AcmService(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock, final Runnable wakeup)
    {
        this.options = options;
        this.endpoints = new CopyOnWriteArrayList<>(endpoints);
        this.addressResolver = addressResolver;
        this.pathQuerier = pathQuerier;
        this.log = log;
        this.clock = clock;
        this.deadlines = new DeadlineTimers<>(clock);
        this.overflowLog = new AcmLogThrottle(log, 0, OVERFLOW_LOG_INTERVAL_NS);
        this.wakeup = wakeup;
        this.addrLifetimeNs = options.addrLifetimeNs();
        this.routeLifetimeNs = options.routeLifetimeNs();
        indexAddresses();
        this.endpointQueries = new AcmEndpointQueries(this.endpoints, endpointByAddress, counters);
    }

    /** The endpoints now (those of a removed device gone). */
    public List<AcmEndpoint> endpoints()
    {
        return List.copyOf(endpoints);
    }

    /** Each endpoint's addresses to it, the first endpoint that names an address winning. */
    private void indexAddresses()
    {
        for (final AcmEndpoint endpoint : endpoints)
        {
            for (final AcmAddress address : endpoint.addresses())
            {
                endpointByAddress.putIfAbsent(address, endpoint);
            }
        }
    }

    /**
     * Server thread: RDMA device {@code device} is gone, and its endpoints with it, as if never
     * configured. A request from one of their addresses or GIDs then gets ESRCADDR (librdmacm goes on
     * without ACM, to the kernel, which knows the device is gone), EP_QUERY no longer lists them, and
     * their route caches go with them; an address another endpoint also names is that one's now. What
     * is in flight for them still gets its answer. Returns the endpoints dropped.
     */
    List<AcmEndpoint> dropDevice(final String device)
    {
        final List<AcmEndpoint> gone = endpoints.stream().filter(endpoint -> endpoint.deviceName().equals(device)).toList();
        if (!gone.isEmpty())
        {
            endpoints.removeAll(gone);
            endpointByAddress.clear();
            indexAddresses();
            log.log(0, "device " + device + " removed: " + gone.size() + " endpoint(s) dropped, " + endpoints.size() + " left"
                + gone.stream().map(endpoint -> "\n  " + endpoint + " " + endpoint.addresses()).reduce("", String::concat));
        }
        return gone;
    }

    public AcmCounters counters()
    {
        return counters;
    }

    /** Requests received since start, for logs and benchmarks. */
    public long requests()
    {
        return requests;
    }

    /** Seeds the address cache (ibacm hosts file): {@code address} resolves to {@code gid}. */
    public void preloadAddress(final AcmAddress address, final Gid gid)
    {
        final AcmAddressEntry cached = new AcmAddressEntry(address, AcmAddressEntry.State.RESOLVED);
        cached.gid = gid;
        cached.expiresAtNs = expiry(addrLifetimeNs);
        addresses.put(address, cached);
    }

    /**
     * Seeds {@code endpoint}'s route table with a path (OpenSM path-record dump), reachable by its
     * DGID and by its DLID. Routes to the endpoint itself never expire, as in ibacm.
     */
    public void preloadRoute(final AcmEndpoint endpoint, final byte[] path)
    {
        final IbvPathRecord record = PathRecordTemplate.view(path);
        final Gid dgid = record.dgid();
        final int dlid = record.dlid();
        final long expires = dlid == endpoint.lid() ? Long.MAX_VALUE : expiry(routeLifetimeNs);
        for (final AcmAddress key : new AcmAddress[] {AcmAddress.gid(dgid), AcmAddress.lid(dlid)})
        {
            final AcmRoute route = new AcmRoute(endpoint, key, path);
            route.path = path;
            route.expiresAtNs = expires;
            transition(route, AcmRoute.State.READY);
            endpoint.routes.put(key, route);
        }
    }

    private long now()
    {
        return clock.nanoTime();
    }

    private long expiry(final long lifetimeNs)
    {
        final long now = now();
        return lifetimeNs >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + lifetimeNs;
    }

    // ------------------------------------------------------------------------------------------------
    // Requests

    /** One framed request from {@code connection}; {@code bytesHeld} of its {@code declaredLength} bytes. */
    void onRequest(final AcmClientChannel connection, final UnsafeBuffer request, final int bytesHeld,
        final int declaredLength)
    {
        requests++;
        header.wrap(request, 0, bytesHeld);
        if (log.enabled(2))
        {
            log.log(2, "client " + connection.id() + " request " + header);
        }
        if (header.version() != AcmHeader.VERSION)
        {
            log.log(1, "client " + connection.id() + ": version " + header.version() + ", only 1 is spoken");
            replyError(connection, request, AcmStatus.EINVAL);
            return;
        }
        if (declaredLength < AcmHeader.LENGTH || declaredLength > AcmMessage.MAX_LENGTH || bytesHeld != declaredLength)
        {
            log.log(1, "client " + connection.id() + ": length " + declaredLength + " outside 16.."
                + AcmMessage.MAX_LENGTH);
            replyError(connection, request, AcmStatus.EINVAL);
            return;
        }
        switch (header.operation())
        {
            case AcmOp.RESOLVE -> resolve(connection, request, declaredLength);
            case AcmOp.PERF_QUERY -> endpointQueries.perfQuery(connection, request, declaredLength);
            case AcmOp.EP_QUERY -> endpointQueries.epQuery(connection, request);
            default ->
            {
                log.log(1, "client " + connection.id() + ": unknown opcode 0x" + Integer.toHexString(header.opcode()));
                replyError(connection, request, AcmStatus.EINVAL);
            }
        }
    }

    private void resolve(final AcmClientChannel connection, final UnsafeBuffer request, final int length)
    {
        counters.increment(AcmCounter.RESOLVE);
        final int body = length - AcmHeader.LENGTH;
        if (body % AcmEpAddrData.LENGTH != 0)
        {
            replyError(connection, request, AcmStatus.EINVAL);
            return;
        }
        final int count = body / AcmEpAddrData.LENGTH;
        if (count == 0)
        {
            replyError(connection, request, AcmStatus.EDESTTYPE);
            return;
        }
        entry.wrap(request, AcmHeader.LENGTH, body);
        if (entry.type() == AcmEpType.PATH)
        {
            if (entry.hasFlag(AcmEpFlags.QUERY_SA))
            {
                querySa(connection, request, count);
            }
            else
            {
                resolvePath(connection, request, length);
            }
            return;
        }
        resolveAddress(connection, request, length, count);
    }

    private void resolveAddress(final AcmClientChannel connection, final UnsafeBuffer request, final int length,
        final int count)
    {
        int source = -1;
        int destination = -1;
        for (int i = 0; i < count; i++)
        {
            entry.wrap(request, entryOffset(i), AcmEpAddrData.LENGTH);
            if (entry.hasFlag(AcmEpFlags.SOURCE))
            {
                if (source >= 0)
                {
                    replyError(connection, request, AcmStatus.ESRCADDR);
                    return;
                }
                if (!AcmEpType.isAddressType(entry.type()))
                {
                    replyError(connection, request, AcmStatus.ESRCTYPE);
                    return;
                }
                source = i;
            }
            if (entry.hasFlag(AcmEpFlags.DEST))
            {
                if (destination >= 0)
                {
                    replyError(connection, request, AcmStatus.EDESTADDR);
                    return;
                }
                if (!AcmEpType.isAddressType(entry.type()))
                {
                    replyError(connection, request, AcmStatus.EDESTTYPE);
                    return;
                }
                destination = i;
            }
        }
        if (destination < 0)
        {
            replyError(connection, request, AcmStatus.EDESTTYPE);
            return;
        }

        entry.wrap(request, entryOffset(destination), AcmEpAddrData.LENGTH);
        final boolean nodelay = entry.hasFlag(AcmEpFlags.NODELAY);
        final AcmAddress dest = AcmAddress.of(entry);
        final AcmAddress src;
        DirectBuffer selected = null;
        if (source >= 0)
        {
            entry.wrap(request, entryOffset(source), AcmEpAddrData.LENGTH);
            src = AcmAddress.of(entry);
        }
        else
        {
            src = selectSource(dest);
            if (src == null)
            {
                replyError(connection, request, dest.type() == AcmEpType.ADDRESS_IP
                    || dest.type() == AcmEpType.ADDRESS_IP6 ? AcmStatus.ESRCADDR : AcmStatus.EDESTTYPE);
                return;
            }
            chosenSource.setMemory(0, AcmEpAddrData.LENGTH, (byte)0);
            replyEntry.wrap(chosenSource, 0).flags(AcmEpFlags.SOURCE);
            src.writeTo(replyEntry);
            selected = chosenSource;
        }
        if (log.enabled(2))
        {
            // the header says only RESOLVE: which addresses tell one client's question from another's
            log.log(2, "client " + connection.id() + " resolve " + src + " -> " + dest);
        }
        final AcmEndpoint endpoint = endpointByAddress.get(src);
        if (endpoint == null)
        {
            log.log(1, "client " + connection.id() + ": no local endpoint has source address " + src);
            replyError(connection, request, AcmStatus.ESRCADDR);
            return;
        }
        endpoint.counters().increment(AcmCounter.RESOLVE);

        switch (dest.type())
        {
            case AcmEpType.ADDRESS_GID -> routeStage(connection, request, length, selected, endpoint,
                dest, new Gid(dest.high(), dest.low()), 0, nodelay, null);
            case AcmEpType.ADDRESS_LID -> routeStage(connection, request, length, selected, endpoint,
                dest, null, (int)(dest.high() >>> 48), nodelay, null);
            default -> addressStage(connection, request, length, selected, endpoint, dest, nodelay);
        }
    }

    /** ibacm's source selection: the address the kernel would send from toward {@code dest}. */
    private static AcmAddress selectSource(final AcmAddress dest)
    {
        final boolean v4 = dest.type() == AcmEpType.ADDRESS_IP;
        if (!v4 && dest.type() != AcmEpType.ADDRESS_IP6)
        {
            return null;
        }
        try (DatagramChannel probe = DatagramChannel.open(v4 ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6))
        {
            final InetAddress target = v4
                ? InetAddress.getByAddress(new byte[] {(byte)(dest.ipv4Value() >>> 24), (byte)(dest.ipv4Value() >>> 16),
                (byte)(dest.ipv4Value() >>> 8), (byte)dest.ipv4Value()})
                : InetAddress.getByAddress(dest.bytes16());
            probe.connect(new InetSocketAddress(target, 9));
            final InetAddress local = ((InetSocketAddress)probe.getLocalAddress()).getAddress();
            if (local instanceof Inet4Address && v4)
            {
                final byte[] b = local.getAddress();
                return AcmAddress.ipv4(((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff));
            }
            if (local instanceof Inet6Address)
            {
                return AcmAddress.ipv6(local.getAddress());
            }
            return null;
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    private void addressStage(final AcmClientChannel connection, final UnsafeBuffer request, final int length,
        final DirectBuffer selected, final AcmEndpoint endpoint, final AcmAddress dest, final boolean nodelay)
    {
        AcmAddressEntry cached = addresses.get(dest);
        if (cached != null && cached.isResolved(now()))
        {
            count(endpoint, AcmCounter.ADDR_CACHE);
            routeStage(connection, request, length, selected, endpoint, AcmAddress.gid(cached.gid), cached.gid, 0,
                nodelay, null);
            return;
        }
        if (nodelay)
        {
            // the client is answered before anything is queued for it, as the flag asks
            count(endpoint, AcmCounter.NODATA);
            replyError(connection, request, AcmStatus.ENODATA);
        }
        if (cached == null || cached.state() == AcmAddressEntry.State.RESOLVED)
        {
            if (endpoint.addressQueries >= options.saQueueDepth())
            {
                overflow(endpoint, "address ", dest);
                if (cached != null)
                {
                    addresses.remove(dest, cached);
                }
                if (!nodelay)
                {
                    count(endpoint, AcmCounter.ERROR);
                    replyError(connection, request, AcmStatus.ENOMEM);
                }
                return;
            }
            cached = new AcmAddressEntry(dest, AcmAddressEntry.State.QUERYING);
            addresses.put(dest, cached);
            startAddressQuery(endpoint, cached);
        }
        if (nodelay)
        {
            return;
        }
        cached.waiters.add(new AcmPendingRequest(connection, request, length, endpoint, copy(selected)));
    }

    private void startAddressQuery(final AcmEndpoint endpoint, final AcmAddressEntry cached)
    {
        count(endpoint, AcmCounter.ADDR_QUERY);
        cached.queriedBy = endpoint;
        endpoint.addressQueries++;
        final long generation = ++cached.generation;
        cached.deadlineNs = now() + options.saDeadlineNs();
        cached.timerId = deadlines.reschedule(cached.timerId, cached, cached.deadlineNs);
        log.log(2, "address query for " + cached.address + " from " + endpoint);
        try
        {
            addressResolver.resolve(endpoint, cached.address, new AcmGidLookup.Completion()
            {
                public void onGid(final Gid gid)
                {
                    execute(() -> onAddressResult(cached, generation, gid, AcmStatus.SUCCESS, null));
                }

                public void onError(final int acmStatus, final String reason)
                {
                    execute(() -> onAddressResult(cached, generation, null, acmStatus, reason));
                }
            });
        }
        catch (final RuntimeException ex)
        {
            execute(() -> onAddressResult(cached, generation, null, AcmStatus.ENODATA, ex.toString()));
        }
    }

    private void onAddressResult(final AcmAddressEntry cached, final long generation, final Gid gid,
        final int status, final String reason)
    {
        if (cached.generation != generation || cached.state() != AcmAddressEntry.State.QUERYING)
        {
            return;
        }
        cached.generation++;
        cached.timerId = deadlines.cancel(cached.timerId);
        cached.queriedBy.addressQueries--;
        if (gid != null)
        {
            cached.gid = gid;
            cached.expiresAtNs = expiry(addrLifetimeNs);
            transition(cached, AcmAddressEntry.State.RESOLVED);
        }
        else
        {
            log.log(1, "address " + cached.address + " not resolved: " + AcmStatus.name(status) + " (" + reason + ")");
            if (addresses.get(cached.address) == cached)
            {
                addresses.remove(cached.address);
            }
        }
        AcmPendingRequest waiter;
        while ((waiter = cached.waiters.poll()) != null)
        {
            if (gid != null)
            {
                routeStage(waiter.connection, waiter.request, waiter.length, selectedOf(waiter), waiter.endpoint,
                    AcmAddress.gid(gid), gid, 0, false, waiter);
            }
            else
            {
                fail(waiter, status);
            }
        }
    }

    private void resolvePath(final AcmClientChannel connection, final UnsafeBuffer request, final int length)
    {
        entry.wrap(request, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
        final IbvPathRecord path = entry.path(pathView);
        final int dlid = path.dlid();
        final long dgidHigh = path.dgidPrefix();
        final long dgidLow = path.dgidInterfaceId();
        if (dlid == 0 && dgidHigh == 0 && dgidLow == 0)
        {
            replyError(connection, request, AcmStatus.EDESTADDR);
            return;
        }
        final AcmEndpoint endpoint = endpointForPath(path);
        if (endpoint == null)
        {
            replyError(connection, request, AcmStatus.ESRCADDR);
            return;
        }
        endpoint.counters().increment(AcmCounter.RESOLVE);
        final boolean nodelay = entry.hasFlag(AcmEpFlags.NODELAY);
        if (dlid != 0)
        {
            routeStage(connection, request, length, null, endpoint, AcmAddress.lid(dlid), null, dlid, nodelay, null);
        }
        else
        {
            final Gid dgid = new Gid(dgidHigh, dgidLow);
            routeStage(connection, request, length, null, endpoint, AcmAddress.gid(dgid), dgid, 0, nodelay, null);
        }
    }

    /** ibacm's {@code acm_is_path_from_port} and P_Key match, over our endpoints. */
    private AcmEndpoint endpointForPath(final IbvPathRecord path)
    {
        final long sgidHigh = path.sgidPrefix();
        final long sgidLow = path.sgidInterfaceId();
        final int slid = path.slid();
        final long dgidHigh = path.dgidPrefix();
        final long dgidLow = path.dgidInterfaceId();
        final int pkey = path.pKey();
        AcmEndpoint sameSubnet = null;
        for (final AcmEndpoint endpoint : endpoints)
        {
            if (pkey != 0 && (pkey & 0x7fff) != (endpoint.pkey() & 0x7fff))
            {
                continue;
            }
            final Gid gid = endpoint.gid();
            if (sgidHigh != 0 || sgidLow != 0)
            {
                if (gid.subnetPrefix() == sgidHigh && gid.interfaceId() == sgidLow)
                {
                    return endpoint;
                }
                continue;
            }
            if (slid != 0)
            {
                if (endpoint.lid() == slid)
                {
                    return endpoint;
                }
                continue;
            }
            if ((dgidHigh == 0 && dgidLow == 0) || (gid.subnetPrefix() == dgidHigh && gid.interfaceId() == dgidLow))
            {
                return endpoint;
            }
            if (sameSubnet == null && gid.subnetPrefix() == dgidHigh)
            {
                sameSubnet = endpoint;
            }
        }
        return sameSubnet;
    }

    private void routeStage(final AcmClientChannel connection, final UnsafeBuffer request, final int length,
        final DirectBuffer selected, final AcmEndpoint endpoint, final AcmAddress key, final Gid dgid, final int dlid,
        final boolean nodelay, final AcmPendingRequest pending)
    {
        AcmRoute route = endpoint.routes.get(key);
        final long now = now();
        if (route != null && route.isReady(now))
        {
            count(endpoint, AcmCounter.ROUTE_CACHE);
            replyPath(connection, request, selected, route.path);
            if (pending != null)
            {
                pending.answered = true;
            }
            return;
        }
        if (nodelay)
        {
            // the client is answered before anything is queued for it, as the flag asks
            count(endpoint, AcmCounter.NODATA);
            replyError(connection, request, AcmStatus.ENODATA);
            if (pending != null)
            {
                pending.answered = true;
            }
        }
        final boolean needsQuery = route == null || route.state() == AcmRoute.State.READY
            || route.state() == AcmRoute.State.IDLE;
        if (needsQuery && endpoint.saQueue.size() >= options.saQueueDepth())
        {
            overflow(endpoint, "route to ", key);
            if (route != null)
            {
                // an expired route is forgotten rather than kept stale: the next miss asks again
                endpoint.routes.remove(key, route);
            }
            if (!nodelay)
            {
                // ibacm's answer when it cannot allocate the SA request (acmp_resolve_path_sa)
                count(endpoint, AcmCounter.ERROR);
                replyError(connection, request, AcmStatus.ENOMEM);
                if (pending != null)
                {
                    pending.answered = true;
                }
            }
            return;
        }
        if (route == null)
        {
            route = new AcmRoute(endpoint, key, PathRecordTemplate.query(endpoint, dgid, dlid));
            endpoint.routes.put(key, route);
        }
        if (route.state() == AcmRoute.State.READY)
        {
            route.path = null;
            transition(route, AcmRoute.State.IDLE);
        }
        if (route.state() == AcmRoute.State.IDLE)
        {
            transition(route, AcmRoute.State.QUEUED);
            endpoint.saQueue.add(route);
            pumpSaQueue(endpoint);
        }
        if (nodelay)
        {
            return;
        }
        if (route.state() == AcmRoute.State.READY)
        {
            count(endpoint, AcmCounter.ROUTE_CACHE);
            replyPath(connection, request, selected, route.path);
            if (pending != null)
            {
                pending.answered = true;
            }
            return;
        }
        route.waiters.add(pending != null ? pending
            : new AcmPendingRequest(connection, request, length, endpoint, copy(selected)));
    }

    /**
     * A lookup that found the endpoint's SA queue (or its address queries) full: not remembered,
     * counted, and logged at most once per {@link #OVERFLOW_LOG_INTERVAL_NS}.
     */
    private void overflow(final AcmEndpoint endpoint, final String what, final AcmAddress destination)
    {
        counters.overflowed();
        endpoint.counters().overflowed();
        // the line is built only when it is written: a flood costs a counter here
        overflowLog.log(now(), () -> endpoint + ": queue full (sa_queue_depth " + options.saQueueDepth() + "), " + what
            + destination + " not looked up");
    }

    /** Starts queued SA queries while the endpoint has fewer than {@code sa_depth} outstanding. */
    private void pumpSaQueue(final AcmEndpoint endpoint)
    {
        while (endpoint.saOutstanding < options.saDepth() && !endpoint.saQueue.isEmpty())
        {
            final AcmRoute route = endpoint.saQueue.poll();
            endpoint.saOutstanding++;
            transition(route, AcmRoute.State.QUERYING);
            count(endpoint, AcmCounter.ROUTE_QUERY);
            final long generation = ++route.generation;
            route.deadlineNs = now() + options.saDeadlineNs();
            route.timerId = deadlines.reschedule(route.timerId, route, route.deadlineNs);
            try
            {
                pathQuerier.query(endpoint, route.template.clone(), new AcmPathQuerier.Completion()
                {
                    public void onPath(final byte[] path)
                    {
                        execute(() -> onRouteResult(route, generation, path, AcmStatus.SUCCESS, null));
                    }

                    public void onError(final int acmStatus, final String reason)
                    {
                        execute(() -> onRouteResult(route, generation, null, acmStatus, reason));
                    }
                });
            }
            catch (final RuntimeException ex)
            {
                execute(() -> onRouteResult(route, generation, null, AcmStatus.ENODATA, ex.toString()));
            }
        }
    }

    private void onRouteResult(final AcmRoute route, final long generation, final byte[] path, final int status,
        final String reason)
    {
        if (route.generation != generation || route.state() != AcmRoute.State.QUERYING)
        {
            return;
        }
        route.generation++;
        route.timerId = deadlines.cancel(route.timerId);
        route.endpoint.saOutstanding--;
        final boolean ok = path != null && path.length == PathRecordTemplate.LENGTH;
        if (ok)
        {
            route.path = path.clone();
            route.expiresAtNs = expiry(routeLifetimeNs);
            transition(route, AcmRoute.State.READY);
        }
        else
        {
            log.log(1, route + ": no path, " + AcmStatus.name(status) + " (" + reason + ")");
            transition(route, AcmRoute.State.IDLE);
            // a failed destination keeps no memory: fuzzed or mistyped GIDs must not grow the table
            route.endpoint.routes.remove(route.destination, route);
        }
        AcmPendingRequest waiter;
        while ((waiter = route.waiters.poll()) != null)
        {
            if (ok)
            {
                replyPath(waiter.connection, waiter.request, selectedOf(waiter), route.path);
                waiter.answered = true;
            }
            else
            {
                fail(waiter, status == AcmStatus.SUCCESS ? AcmStatus.ENODATA : status);
            }
        }
        pumpSaQueue(route.endpoint);
    }

    private void querySa(final AcmClientChannel connection, final UnsafeBuffer request, final int count)
    {
        if (count != 1)
        {
            replyQuery(connection, request, AcmMessage.resolveLength(count), AcmStatus.EINVAL);
            return;
        }
        entry.wrap(request, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
        final AcmEndpoint endpoint = endpointForPath(entry.path(pathView));
        if (endpoint == null)
        {
            replyQuery(connection, request, AcmMessage.resolveLength(1), AcmStatus.ESRCADDR);
            return;
        }
        count(endpoint, AcmCounter.ROUTE_QUERY);
        final byte[] template = new byte[PathRecordTemplate.LENGTH];
        request.getBytes(AcmHeader.LENGTH + AcmEpAddrData.INFO_OFFSET, template);
        final AcmPendingRequest pending = new AcmPendingRequest(connection, request,
            AcmMessage.resolveLength(1), endpoint, null);
        try
        {
            pathQuerier.query(endpoint, template, new AcmPathQuerier.Completion()
            {
                public void onPath(final byte[] path)
                {
                    execute(() -> onSaQueryResult(pending, path, AcmStatus.SUCCESS));
                }

                public void onError(final int acmStatus, final String reason)
                {
                    execute(() -> onSaQueryResult(pending, null, acmStatus));
                }
            });
        }
        catch (final RuntimeException ex)
        {
            execute(() -> onSaQueryResult(pending, null, AcmStatus.ENODATA));
        }
    }

    private void onSaQueryResult(final AcmPendingRequest pending, final byte[] path, final int status)
    {
        if (pending.answered)
        {
            return;
        }
        pending.answered = true;
        if (path == null || path.length != PathRecordTemplate.LENGTH)
        {
            count(pending.endpoint, AcmCounter.ERROR);
            replyQuery(pending.connection, pending.request, AcmMessage.resolveLength(1),
                status == AcmStatus.SUCCESS ? AcmStatus.ENODATA : status);
            return;
        }
        replyQuery(pending.connection, pending.request, AcmMessage.resolveLength(1), AcmStatus.SUCCESS, path);
    }

    /**
     * A QUERY_SA reply as ibacm's {@code acm_query_response} sends one, success or not: the request
     * echoed at its own length with ACK and the status, its header data untouched, the path replaced
     * on success only. (RESOLVE errors, by contrast, are cut to the 16-byte header.)
     */
    private void replyQuery(final AcmClientChannel connection, final DirectBuffer request, final int length,
        final int status)
    {
        replyQuery(connection, request, length, status, null);
    }

    private void replyQuery(final AcmClientChannel connection, final DirectBuffer request, final int length,
        final int status, final byte[] path)
    {
        reply.putBytes(0, request, 0, length);
        replyHeader.wrap(reply, 0);
        replyHeader.opcode(replyHeader.opcode() | AcmOp.ACK).status(status);
        if (path != null)
        {
            reply.putBytes(AcmHeader.LENGTH + AcmEpAddrData.INFO_OFFSET, path);
        }
        connection.reply(reply, 0, length);
    }

    private void fail(final AcmPendingRequest waiter, final int status)
    {
        count(waiter.endpoint, status == AcmStatus.ENODATA ? AcmCounter.NODATA : AcmCounter.ERROR);
        replyError(waiter.connection, waiter.request, status);
        waiter.answered = true;
    }

    // ------------------------------------------------------------------------------------------------
    // Replies

    private void replyError(final AcmClientChannel connection, final DirectBuffer request, final int status)
    {
        reply.putBytes(0, request, 0, AcmHeader.LENGTH);
        replyHeader.wrap(reply, 0);
        replyHeader.opcode(replyHeader.opcode() | AcmOp.ACK).status(status).data(0, 0, 0).length(AcmHeader.LENGTH);
        connection.reply(reply, 0, AcmHeader.LENGTH);
    }

    private void replyPath(final AcmClientChannel connection, final DirectBuffer request, final DirectBuffer selected,
        final byte[] path)
    {
        final int entries = selected != null ? 2 : 1;
        final int length = AcmMessage.resolveLength(entries);
        reply.putBytes(0, request, 0, AcmHeader.LENGTH);
        replyHeader.wrap(reply, 0).status(AcmStatus.SUCCESS).data(0, 0, 0).length(length);
        reply.setMemory(AcmHeader.LENGTH, AcmEpAddrData.LENGTH, (byte)0);
        replyEntry.wrap(reply, AcmHeader.LENGTH).flags(AcmEpFlags.RESOLVED_PATH).type(AcmEpType.PATH);
        reply.putBytes(replyEntry.infoOffset(), path);
        if (selected != null)
        {
            reply.putBytes(entryOffset(1), selected, 0, AcmEpAddrData.LENGTH);
        }
        connection.reply(reply, 0, length);
    }

    private static int entryOffset(final int index)
    {
        return AcmHeader.LENGTH + index * AcmEpAddrData.LENGTH;
    }

    private static byte[] copy(final DirectBuffer selected)
    {
        if (selected == null)
        {
            return null;
        }
        final byte[] bytes = new byte[AcmEpAddrData.LENGTH];
        selected.getBytes(0, bytes);
        return bytes;
    }

    private static DirectBuffer selectedOf(final AcmPendingRequest waiter)
    {
        return waiter.selectedSource == null ? null : new UnsafeBuffer(waiter.selectedSource);
    }

    private void count(final AcmEndpoint endpoint, final AcmCounter counter)
    {
        counters.increment(counter);
        endpoint.counters().increment(counter);
    }

    /** The one place a route or an address entry changes state (Aeron's Election shape); traced at log level 2. */
    private <S extends Enum<S>> void transition(final AcmLookup<S> lookup, final S next)
    {
        final S previous = lookup.transition(next);
        if (log.enabled(2))
        {
            log.log(2, lookup.traceName() + ": " + previous + " -> " + next);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Duty cycle

    /** Runs {@code completion} on the server thread at its next duty cycle; callable from any thread. */
    void execute(final Runnable completion)
    {
        completions.add(completion);
        wakeup.run();
    }

    /** Runs completed lookups and expires overdue ones; returns the amount of work done. */
    int doWork()
    {
        int work = 0;
        Runnable completion;
        while ((completion = completions.poll()) != null)
        {
            completion.run();
            work++;
        }
        work += deadlines.expire(now(), onDeadline, DEADLINE_EXPIRY_LIMIT);
        return work;
    }

    /** A route's or an address's query outlived the SA deadline: its waiters get ETIMEDOUT. */
    private void onDeadline(final AcmLookup<?> lookup, final long timerId, final long nowNs)
    {
        lookup.timerId = DeadlineTimers.NULL_TIMER;
        if (lookup instanceof AcmRoute route)
        {
            onRouteResult(route, route.generation, null, AcmStatus.ETIMEDOUT, "no answer within the SA deadline");
        }
        else if (lookup instanceof AcmAddressEntry cached)
        {
            onAddressResult(cached, cached.generation, null, AcmStatus.ETIMEDOUT, "no answer within the deadline");
        }
    }

    /** Nanoseconds until the earliest lookup deadline, or -1 when nothing is outstanding. */
    long nanosToNextDeadline()
    {
        final long nanos = deadlines.nanosToEarliest(now());
        return nanos == Long.MAX_VALUE ? -1 : nanos;
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.cm.testing.PreloadedAcmServer;
import dev.rdmacm.cm.testing.SilentAcmService;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.SaqueryPathFields;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * librdmacm 44's ACM-first route on an InfiniBand fabric (OpenSM's SA on ibsim): with our acm-server
 * holding a route from an OpenSM path dump, resolveRoute takes that route and sends no SA query; the
 * dump's SL, MTU and rate differ from what OpenSM answers, so the path shows where it came from. With
 * the ACM-first route off, with no service on the socket, or with a service that has no route, the
 * route is the SA's, field for field {@code saquery -p}'s. The exchange runs on the conductor: asking
 * starts no thread, ids that ask at once each get their own answer, and a service that never answers is
 * given up at the reply timeout, on the RdmaCm's clock.
 */
class AcmFirstRouteOnSimulatedFabricTest
{
    private static final int PORT = 7471;
    private static final int DUMP_SL = 5;
    private static final int DUMP_MTU = 1;
    private static final int DUMP_RATE = 7;

    @TempDir
    static Path dir;

    private static SimulatedFabric fabric;
    private static HostsFile hosts;
    private static FabricPort source;
    private static FabricPort destination;
    private static FabricPort unlisted;
    private static PreloadedAcmServer acm;
    /** The same routes, served on TCP too (ibacm's loop mode): librdmacm reads the port file first. */
    private static PreloadedAcmServer loopAcm;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
        final Path hostsFile = FabricHosts.write(fabric, dir);
        hosts = HostsFile.read(hostsFile);
        source = fabric.hcaPorts().get(0);
        destination = fabric.hcaPorts().get(1);
        unlisted = fabric.hcaPorts().get(2);
        final String endpoints = FabricHosts.address(source).getHostAddress() + " " + source.node() + " 1 0xffff " +
            source.gid() + " " + source.lid() + "\n";
        acm = PreloadedAcmServer.start(dir.resolve("acm"), dir.resolve("run"), endpoints, Files.readString(hostsFile),
            pathDump());
        loopAcm = PreloadedAcmServer.start(dir.resolve("acm-loop"), dir.resolve("run-loop"), "loop", endpoints,
            Files.readString(hostsFile), pathDump());
    }

    /** As OpenSM's opensmdumppr writes it: from the source, a route to the destination only. */
    private static String pathDump()
    {
        final StringBuilder dump = new StringBuilder();
        for (final FabricPort port : fabric.hcaPorts())
        {
            dump.append(String.format("Channel Adapter 0x%016x, base LID %d, \"%s HCA-1\", port 1%n", port.portGuid(),
                port.lid(), port.node()));
            dump.append("# LID  : SL : MTU : RATE\n");
            dump.append(String.format("0x%04x : 0  : 4   : 3%n", port.lid()));
            if (port == source)
            {
                dump.append(String.format("0x%04x : %d  : %d   : %d%n", destination.lid(), DUMP_SL, DUMP_MTU, DUMP_RATE));
            }
            dump.append('\n');
        }
        return dump.toString();
    }

    @AfterAll
    static void stop()
    {
        if (acm != null)
        {
            acm.close();
        }
        if (loopAcm != null)
        {
            loopAcm.close();
        }
        if (fabric != null)
        {
            fabric.close();
        }
    }

    private static SaClient attach()
    {
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), source.node(), Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
    }

    private static ResolvedRoute resolve(final AcmFirstRoute acmFirst, final FabricPort to, final List<String> steps)
        throws Exception
    {
        return resolve(acmFirst, to, steps, new ArrayList<>());
    }

    /** As above, each move of the route's phase added to {@code moves} as {@code FROM->TO}. */
    private static ResolvedRoute resolve(final AcmFirstRoute acmFirst, final FabricPort to, final List<String> steps,
        final List<String> moves) throws Exception
    {
        try (SaClient sa = attach();
             RdmaCm cm = RdmaCm.open(options(sa, acmFirst), NanoClock.SYSTEM, TransitionListener.none(),
                 (route, from, next, now) -> moves.add(from + "->" + next));
             EventChannel channel = cm.createEventChannel())
        {
            return resolve(cm, channel, to, steps);
        }
    }

    private static RdmaCm.Options options(final SaClient sa, final AcmFirstRoute acmFirst)
    {
        return RdmaCm.Options.builder().sa(sa).acmFirstRoute(acmFirst)
            .hostsNeighbours(new HostsNeighbours(hosts, HostsNeighbours.infinibandPort(source.node(), 1, source.gid()))).build();
    }

    /** {@code id}'s address, resolved on its channel. */
    private static void resolveAddress(final RdmaCmId id, final EventChannel channel, final FabricPort to) throws Exception
    {
        id.resolveAddr(null, new InetSocketAddress(FabricHosts.address(to), PORT), Duration.ofMillis(1000));
        final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
        event.ack();
        assertEquals(CmEventType.ADDR_RESOLVED, event.type(), event.toString());
    }

    /** The names of the live threads not in {@code before}, sorted. */
    private static List<String> startedSince(final Set<Thread> before)
    {
        return Thread.getAllStackTraces().keySet().stream().filter(thread -> !before.contains(thread) && thread.isAlive())
            .map(Thread::getName).sorted().toList();
    }

    /** One id on {@code cm}: its address, then its route, which must resolve. */
    private static ResolvedRoute resolve(final RdmaCm cm, final EventChannel channel, final FabricPort to,
        final List<String> steps) throws Exception
    {
        try (RdmaCmId id = cm.createId(channel, PortSpace.TCP))
        {
            id.resolveAddr(null, new InetSocketAddress(FabricHosts.address(to), PORT), Duration.ofMillis(1000));
            channel.getEvent(Duration.ofSeconds(5)).ack();
            id.resolveRoute(Duration.ofMillis(2000));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
            event.ack();
            assertEquals(CmEventType.ROUTE_RESOLVED, event.type(), event.toString());
            final ResolutionTrace trace = ((CmEvent.RouteResolved)event).trace();
            if (trace != null)
            {
                trace.steps().forEach(step -> steps.add(step.name()));
            }
            return id.route();
        }
    }

    private static Map<String, String> saquery(final FabricPort to)
    {
        final List<Map<String, String>> records = fabric.saquery(source.node(), "-p", "--sgid", source.gid().toString(),
            "--dgid", to.gid().toString(), "--pkey", "0xffff", "--service_id",
            String.format("0x%016x", PortSpace.TCP.serviceId(PORT)), "--qos_class", "0", "--reversible", "1",
            "--numb_path", "1").records();
        assertEquals(1, records.size());
        return SaqueryPathFields.withoutReserved(records.get(0));
    }

    @Test
    void shouldTakeTheAcmRouteAndAskNoSa() throws Exception
    {
        final List<String> steps = new ArrayList<>();
        final ResolvedRoute route = resolve(AcmFirstRoute.at(acm.librdmacmSocket()), destination, steps);

        assertEquals(ResolvedRoute.Kind.ACM, route.kind());
        assertEquals(0x2bL, route.primary().flags(), "acmp's PATH flags: GMP | PRIMARY | BIDIRECTIONAL");
        final PathRecordValue path = route.primary().record();
        assertEquals(source.gid(), path.sgid());
        assertEquals(destination.gid(), path.dgid());
        assertEquals(destination.lid(), path.dlid().value());
        assertEquals(source.lid(), path.slid().value());
        assertEquals(DUMP_SL, path.sl());
        assertEquals(DUMP_MTU, path.mtu());
        assertEquals(DUMP_RATE, path.rate());
        assertNotEquals(saquery(destination).get("sl") + saquery(destination).get("mtu"),
            Integer.toString(DUMP_SL) + DUMP_MTU, "the dump's values must not be the SA's, or the test shows nothing");
        assertEquals(List.of("acm route"), steps, "no SA query");
    }

    @Test
    void shouldMoveTheRouteFromTheAcmQueryStraightToResolved() throws Exception
    {
        final List<String> moves = new CopyOnWriteArrayList<>();
        resolve(AcmFirstRoute.at(acm.librdmacmSocket()), destination, new ArrayList<>(), moves);

        assertEquals(List.of("SUBMITTED->ACM_QUERY", "ACM_QUERY->RESOLVED"), moves);
    }

    @Test
    void shouldMoveTheRouteFromTheAcmQueryToTheSaWhenTheServiceHasNoRoute() throws Exception
    {
        final List<String> moves = new CopyOnWriteArrayList<>();
        resolve(AcmFirstRoute.at(acm.librdmacmSocket()), unlisted, new ArrayList<>(), moves);

        assertEquals(List.of("SUBMITTED->ACM_QUERY", "ACM_QUERY->SA_QUERY", "SA_QUERY->RESOLVED"), moves);
    }

    @Test
    void shouldAskNoAcmAgainOnceItFoundNoService() throws Exception
    {
        // librdmacm's ucma_ib_init connects once: without a service, no later route asks again
        final List<String> moves = new CopyOnWriteArrayList<>();
        try (SaClient sa = attach();
             RdmaCm cm = RdmaCm.open(options(sa, AcmFirstRoute.at(dir.resolve("none.sock"))), NanoClock.SYSTEM,
                 TransitionListener.none(), (route, from, next, now) -> moves.add(from + "->" + next));
             EventChannel channel = cm.createEventChannel())
        {
            resolve(cm, channel, destination, new ArrayList<>());
            resolve(cm, channel, destination, new ArrayList<>());
        }

        assertEquals(List.of("SUBMITTED->ACM_QUERY", "ACM_QUERY->SA_QUERY", "SA_QUERY->RESOLVED",
            "SUBMITTED->SA_QUERY", "SA_QUERY->RESOLVED"), moves);
    }

    @Test
    void shouldAskNoAcmWhenTheAcmRouteIsOff() throws Exception
    {
        final List<String> moves = new CopyOnWriteArrayList<>();
        resolve(AcmFirstRoute.OFF, destination, new ArrayList<>(), moves);

        assertEquals(List.of("SUBMITTED->SA_QUERY", "SA_QUERY->RESOLVED"), moves);
    }

    @Test
    void shouldReturnFromResolveRouteAsyncWhileTheAcmServiceHoldsTheQuestion() throws Exception
    {
        // a test double: a service that takes the question and holds it, which no ibacm does on demand
        final Path socket = Files.createDirectories(dir.resolve("silent")).resolve("ibacm.sock");
        try (ServerSocketChannel silentService = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
                 .bind(UnixDomainSocketAddress.of(socket));
             SaClient sa = attach();
             RdmaCm cm = RdmaCm.open(options(sa, AcmFirstRoute.at(socket)));
             EventChannel channel = cm.createEventChannel();
             RdmaCmId id = cm.createId(channel, PortSpace.TCP))
        {
            id.resolveAddr(null, new InetSocketAddress(FabricHosts.address(destination), PORT), Duration.ofMillis(1000));
            channel.getEvent(Duration.ofSeconds(5)).ack();

            final CompletableFuture<ResolvedRoute> route = id.resolveRouteAsync(Duration.ofMillis(2000));
            try (SocketChannel asked = silentService.accept())
            {
                // the question is with the service, which has not answered: the call has returned all the same
                assertTrue(asked.read(ByteBuffer.allocate(4096)) > 0, "the ACM question arrives");
                assertFalse(route.isDone(), "resolveRouteAsync returned before ACM answered");
                assertEquals(CmIdState.ADDR_RESOLVED, id.state(), "librdmacm asks ACM before the kernel's ROUTE_QUERY");
            }
            // the service went away without an answer: librdmacm goes on to the kernel, here the SA
            assertEquals(ResolvedRoute.Kind.SA_QUERY, route.get(10, TimeUnit.SECONDS).kind());
            channel.getEvent(Duration.ofSeconds(5)).ack();
        }
    }

    @Test
    void shouldRunNoThreadButTheConductorWhileIdsAskTheAcmServiceAtOnce() throws Exception
    {
        // the service on TCP (its port file read first): the conductor's connect is under way before it completes
        final AcmFirstRoute tcp = new AcmFirstRoute(true, loopAcm.portFile(), dir.resolve("no-unix-socket"),
            AcmFirstRoute.LIBRDMACM.replyTimeout());
        final List<FabricPort> destinations = List.of(destination, unlisted, destination, unlisted);
        final List<List<String>> threadsWhileAsked = new CopyOnWriteArrayList<>();
        final List<ResolvedRoute> routes = new ArrayList<>();
        try (SaClient sa = attach())
        {
            final Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
            try (RdmaCm cm = RdmaCm.open(options(sa, tcp), NanoClock.SYSTEM, TransitionListener.none(),
                     (route, from, next, now) ->
                     {
                         if (from == PendingRoute.State.ACM_QUERY)
                         {
                             // on the conductor, as the answer arrives: every thread the RdmaCm runs now
                             threadsWhileAsked.add(startedSince(before));
                         }
                     });
                 EventChannel channel = cm.createEventChannel())
            {
                final List<RdmaCmId> ids = new ArrayList<>();
                for (final FabricPort to : destinations)
                {
                    ids.add(cm.createId(channel, PortSpace.TCP));
                    resolveAddress(ids.getLast(), channel, to);
                }
                final List<CompletableFuture<ResolvedRoute>> asked = new ArrayList<>();
                for (final RdmaCmId id : ids)
                {
                    asked.add(id.resolveRouteAsync(Duration.ofMillis(2000)));
                }
                for (final CompletableFuture<ResolvedRoute> route : asked)
                {
                    routes.add(route.get(10, TimeUnit.SECONDS));
                    channel.getEvent(Duration.ofSeconds(5)).ack();
                }
                for (final RdmaCmId id : ids)
                {
                    id.close();
                }
            }
        }

        assertEquals(List.of(ResolvedRoute.Kind.ACM, ResolvedRoute.Kind.SA_QUERY, ResolvedRoute.Kind.ACM,
            ResolvedRoute.Kind.SA_QUERY), routes.stream().map(ResolvedRoute::kind).toList(), "each id its own answer");
        assertEquals(destination.gid(), routes.get(0).primary().record().dgid());
        assertEquals(destination.gid(), routes.get(2).primary().record().dgid());
        assertEquals(destinations.size(), threadsWhileAsked.size());
        for (final List<String> threads : threadsWhileAsked)
        {
            assertIterableEquals(List.of("rdmacm-conductor"), threads, "no rdmacm-acm thread: the SA engine is the caller's");
        }
    }

    @Test
    void shouldGiveAServiceThatNeverAnswersUpAtTheReplyTimeoutAndNotBefore() throws Exception
    {
        final Duration replyTimeout = Duration.ofSeconds(5);
        final ManualNanoClock clock = new ManualNanoClock();
        final List<String> moves = new CopyOnWriteArrayList<>();
        try (SilentAcmService silent = SilentAcmService.listen(dir.resolve("never").resolve("ibacm.sock"));
             SaClient sa = attach();
             RdmaCm cm = RdmaCm.open(options(sa, new AcmFirstRoute(true, dir.resolve("never").resolve("ibacm.port"),
                 silent.socket(), replyTimeout)), clock, TransitionListener.none(),
                 (route, from, next, now) -> moves.add(from + "->" + next));
             EventChannel channel = cm.createEventChannel();
             RdmaCmId first = cm.createId(channel, PortSpace.TCP);
             RdmaCmId second = cm.createId(channel, PortSpace.TCP);
             RdmaCmId probe = cm.createId(channel, PortSpace.TCP))
        {
            clock.onAdvance(cm::wakeUp);
            resolveAddress(first, channel, destination);
            resolveAddress(second, channel, destination);
            final CompletableFuture<ResolvedRoute> firstRoute = first.resolveRouteAsync(Duration.ofMillis(2000));
            final CompletableFuture<ResolvedRoute> secondRoute = second.resolveRouteAsync(Duration.ofMillis(2000));
            final int questionLength = silent.awaitQuestion();

            clock.advanceNanos(replyTimeout.toNanos() - 1);
            // two round trips: the conductor has run a whole duty cycle, its timers included, on the moved clock
            probe.setReuseAddr(true);
            probe.setReuseAddr(true);
            assertEquals(List.of("SUBMITTED->ACM_QUERY", "SUBMITTED->ACM_QUERY"), moves, "1 ns before the reply timeout");
            assertEquals(CmIdState.ADDR_RESOLVED, first.state());

            clock.advanceNanos(1);
            assertEquals(ResolvedRoute.Kind.SA_QUERY, firstRoute.get(10, TimeUnit.SECONDS).kind());
            assertEquals(ResolvedRoute.Kind.SA_QUERY, secondRoute.get(10, TimeUnit.SECONDS).kind());
            channel.getEvent(Duration.ofSeconds(5)).ack();
            channel.getEvent(Duration.ofSeconds(5)).ack();
            assertEquals(questionLength, silent.receivedUntilClosed(),
                "one question out at a time: the second was never sent, and the connection is closed");
            assertEquals(2, moves.stream().filter("ACM_QUERY->SA_QUERY"::equals).count(), moves.toString());

            // given up: librdmacm's ucma_ib_init does not connect again, so no later route asks
            moves.clear();
            resolveAddress(probe, channel, destination);
            assertEquals(ResolvedRoute.Kind.SA_QUERY, probe.resolveRouteAsync(Duration.ofMillis(2000)).get(10, TimeUnit.SECONDS).kind());
            assertEquals(List.of("SUBMITTED->SA_QUERY", "SA_QUERY->RESOLVED"), moves);
        }
    }

    @Test
    void shouldAskTheSaWhenTheAcmRouteIsOff() throws Exception
    {
        final List<String> steps = new ArrayList<>();
        final ResolvedRoute route = resolve(AcmFirstRoute.OFF, destination, steps);

        assertEquals(ResolvedRoute.Kind.SA_QUERY, route.kind());
        assertEquals(saquery(destination), SaqueryPathFields.of(route.primary().record()));
    }

    @Test
    void shouldAskTheSaWhenNoServiceListensAsToday() throws Exception
    {
        final List<String> steps = new ArrayList<>();
        final ResolvedRoute route = resolve(AcmFirstRoute.at(dir.resolve("absent").resolve("ibacm.sock")), destination,
            steps);

        assertEquals(ResolvedRoute.Kind.SA_QUERY, route.kind());
        assertEquals(saquery(destination), SaqueryPathFields.of(route.primary().record()));
        assertEquals(List.of("sa path query"), steps);
    }

    @Test
    void shouldAskTheSaWhenTheServiceHasNoRoute() throws Exception
    {
        final List<String> steps = new ArrayList<>();
        final ResolvedRoute route = resolve(AcmFirstRoute.at(acm.librdmacmSocket()), unlisted, steps);

        assertEquals(ResolvedRoute.Kind.SA_QUERY, route.kind(), "ENODATA from ACM: librdmacm asks the kernel");
        assertEquals(saquery(unlisted), SaqueryPathFields.of(route.primary().record()));
    }
}

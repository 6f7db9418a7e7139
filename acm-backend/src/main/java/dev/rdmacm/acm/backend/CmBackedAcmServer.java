package dev.rdmacm.acm.backend;

import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.acm.SaPathQuerier;
import dev.rdmacm.cm.AcmFirstRoute;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.sa.SaClient;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * acm-server as {@code rdmacm acm-server} runs it, for a library: an {@link AcmServer} whose address
 * misses go to this stack's CM ({@code rdma_resolve_addr} from the endpoint's own address, as the
 * kernel CM resolves), and whose route misses go to an SA or, on a RoCE port, which has no SA, to the
 * route the CM builds. The CM's device removals reach the server, which drops the removed device's
 * endpoints. It owns the CM it opened and the SA client it was given, and closes them after the
 * server; the log stays the caller's.
 * <pre>
 *   try (CmBackedAcmServer server = CmBackedAcmServer.builder(options, endpoints, log)
 *           .cm(RdmaCm.Options.defaults()).roceRoutes().start())
 *   {
 *       ...
 *   }
 * </pre>
 * acm-server alone ({@link AcmServer#start}) answers every miss it cannot serve from its caches with
 * ENODATA: it cannot depend on the CM, whose routes ask an ACM service first.
 */
public final class CmBackedAcmServer implements AutoCloseable
{
    private final AcmServer server;
    private final RdmaCm cm;
    private final SaClient sa;

    private CmBackedAcmServer(final AcmServer server, final RdmaCm cm, final SaClient sa)
    {
        this.server = server;
        this.cm = cm;
        this.sa = sa;
    }

    /**
     * A server on {@code endpoints} with {@code options}; without {@link Builder#cm} every miss gets
     * ENODATA, as {@link AcmServer} alone.
     */
    public static Builder builder(final AcmOptions options, final List<AcmEndpoint> endpoints, final AcmLog log)
    {
        return new Builder(options, endpoints, log);
    }

    public AcmServer server()
    {
        return server;
    }

    /** Whether address misses reach the CM: false when none was asked for or it could not open (the log says why). */
    public boolean resolvesMisses()
    {
        return cm != null;
    }

    /** The server, then the SA client and the CM it owns. */
    @Override
    public void close()
    {
        try
        {
            server.close();
        }
        finally
        {
            closeBackEnds(sa, cm);
        }
    }

    private static void closeBackEnds(final SaClient sa, final RdmaCm cm)
    {
        try
        {
            if (sa != null)
            {
                sa.close();
            }
        }
        finally
        {
            if (cm != null)
            {
                cm.close();
            }
        }
    }

    /** What the server's misses go to; {@link #start} opens the CM and starts the server. */
    public static final class Builder
    {
        private final AcmOptions options;
        private final List<AcmEndpoint> endpoints;
        private final AcmLog log;
        private RdmaCm.Options cmOptions;
        private boolean roceRoutes;
        private SaClient sa;

        private Builder(final AcmOptions options, final List<AcmEndpoint> endpoints, final AcmLog log)
        {
            this.options = Objects.requireNonNull(options, "options");
            this.endpoints = List.copyOf(endpoints);
            this.log = Objects.requireNonNull(log, "log");
        }

        /**
         * Address misses resolved by a CM opened with {@code cmOptions} (its network namespace, its GID
         * directory), which never asks an ACM service first: the service asked would be this one.
         */
        public Builder cm(final RdmaCm.Options cmOptions)
        {
            this.cmOptions = Objects.requireNonNull(cmOptions, "cmOptions");
            return this;
        }

        /** Route misses built by the CM ({@code rdma_resolve_route} on RoCE, as the kernel CM builds them); needs {@link #cm}. */
        public Builder roceRoutes()
        {
            this.roceRoutes = true;
            return this;
        }

        /** Route misses asked of {@code sa}, which the server then owns (closed with it, or when the start fails). */
        public Builder sa(final SaClient sa)
        {
            this.sa = Objects.requireNonNull(sa, "sa");
            return this;
        }

        /**
         * Opens the CM, if one was asked for, and starts the server. A CM that cannot open (no native
         * access, say) is logged and leaves the misses unanswered, so that the service still serves its
         * caches; a server that cannot start closes what was opened or given.
         */
        public CmBackedAcmServer start() throws IOException
        {
            if (roceRoutes && cmOptions == null)
            {
                closeBackEnds(sa, null);
                throw new IllegalStateException("roceRoutes needs cm(...): the CM builds the RoCE routes");
            }
            if (roceRoutes && sa != null)
            {
                closeBackEnds(sa, null);
                throw new IllegalStateException("route misses go to the SA or to the CM's RoCE routes, not both");
            }
            final RdmaCm cm = cmOptions == null ? null : openCm();
            try
            {
                final Duration timeout = options.saDeadline();
                final AcmGidLookup addresses = cm == null ? AcmGidLookup.NONE : new CmGidLookup(cm, timeout);
                final AcmPathQuerier routes;
                if (sa != null)
                {
                    final SaClient client = sa;
                    routes = new SaPathQuerier(index -> client, timeout);
                }
                else
                {
                    routes = roceRoutes && cm != null ? new RocePathQuerier(cm, timeout) : AcmPathQuerier.NONE;
                }
                final AcmServer server = AcmServer.start(options, endpoints, addresses, routes, log);
                if (cm != null)
                {
                    // a removed device's endpoints go (ibacm keeps them, and holds the device: docs/decisions.md)
                    cm.deviceRemovals(server::deviceRemoved);
                }
                return new CmBackedAcmServer(server, cm, sa);
            }
            catch (final IOException | RuntimeException ex)
            {
                closeBackEnds(sa, cm);
                throw ex;
            }
        }

        private RdmaCm openCm()
        {
            try
            {
                return RdmaCm.open(cmOptions.toBuilder().acmFirstRoute(AcmFirstRoute.OFF).build());
            }
            catch (final RuntimeException ex)
            {
                log.log(0, "no address resolution on misses: " + ex.getMessage());
                return null;
            }
        }
    }
}

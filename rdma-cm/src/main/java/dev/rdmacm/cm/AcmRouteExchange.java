package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.AcmSocketClient;
import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code ucma_set_ib_route}'s question to the ACM service, off the caller's thread and off the
 * conductor: {@code rdma_getaddrinfo(NULL, NULL, hints)} with {@code RAI_ROUTEONLY}, the source's family
 * and the id's two addresses, exchanged over librdmacm's ACM socket on a thread of its own (started at
 * the first question), whose answer goes back to the conductor as a command, as Aeron's driver hands
 * the results of its async tasks back. The exchange blocks (connect, send, one recv within the reply
 * timeout), which is why it is not the conductor's; the thread lives only while there are questions (it
 * ends after {@link #IDLE_SECONDS} without one). Once the conductor polls N descriptors, the socket can
 * join its poll set, with a reply timer, and this thread go.
 */
final class AcmRouteExchange implements AutoCloseable
{
    static final long IDLE_SECONDS = 1;

    /** librdmacm's ACM connection ({@code ucma_ib_init}'s socket), or null when the ACM-first route is off. */
    private final AcmSocketClient acm;
    /** {@code rdma_getaddrinfo} over {@link #acm}. */
    private final RdmaGetAddrInfo routeOnly;
    private ExecutorService thread;
    private boolean closed;

    AcmRouteExchange(final AcmFirstRoute options)
    {
        this.acm = options.enabled() ? options.newClient() : null;
        this.routeOnly = acm == null ? null : RdmaGetAddrInfo.builder().acm(acm).afIbSupport(true).build();
    }

    /**
     * Whether resolveRoute asks ACM first: on, and no service found absent yet. librdmacm connects once
     * ({@code ucma_ib_init}) and, without a service, never asks again; knowing that here, before any
     * hand-off, spares each route two thread hops to an exchange that would answer nothing.
     */
    boolean enabled()
    {
        return routeOnly != null && !acm.hasNoService();
    }

    /**
     * Asks, and hands {@code answer} the route (72-byte {@code ibv_path_data} records, possibly none) or
     * null when no service answered, on the exchange's thread (or at once on the caller's, once closed).
     */
    void ask(final RdmaSockaddr source, final RdmaSockaddr destination, final Consumer<byte[]> answer)
    {
        final ExecutorService executor;
        synchronized (this)
        {
            if (!closed && thread == null)
            {
                // one thread at most, and none once it has been idle for a second
                thread = new ThreadPoolExecutor(0, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                    Thread.ofPlatform().daemon().name("rdmacm-acm").factory());
            }
            executor = closed ? null : thread;
        }
        if (executor == null)
        {
            answer.accept(null);
            return;
        }
        final Question question = new Question(source, destination, answer);
        try
        {
            executor.execute(question);
        }
        catch (final RejectedExecutionException closing)
        {
            answer.accept(null);
        }
    }

    /** One question; whatever happens to it, its answer is given once, null for none. */
    private final class Question implements Runnable
    {
        private final RdmaSockaddr source;
        private final RdmaSockaddr destination;
        private final Consumer<byte[]> answer;

        Question(final RdmaSockaddr source, final RdmaSockaddr destination, final Consumer<byte[]> answer)
        {
            this.source = source;
            this.destination = destination;
            this.answer = answer;
        }

        @Override
        public void run()
        {
            byte[] route = null;
            try
            {
                route = route(source, destination);
            }
            catch (final RuntimeException failed)
            {
                // librdmacm: a failed exchange is no answer, and the kernel's route follows
            }
            finally
            {
                answer.accept(route);
            }
        }

        void abandon()
        {
            answer.accept(null);
        }
    }

    private byte[] route(final RdmaSockaddr source, final RdmaSockaddr destination)
    {
        final RdmaAddrInfoHints hints = RdmaAddrInfoHints.NONE.withFlags(RaiFlags.ROUTEONLY).withFamily(source.family())
            .withSrcAddr(source).withDstAddr(destination);
        if (routeOnly.getaddrinfo(null, null, hints) instanceof AddrInfoResult.Success success &&
            !success.entries().isEmpty())
        {
            return success.entries().get(0).route();
        }
        return null;
    }

    @Override
    public void close()
    {
        final ExecutorService executor;
        synchronized (this)
        {
            closed = true;
            executor = thread;
            thread = null;
        }
        if (executor != null)
        {
            for (final Runnable never : executor.shutdownNow())
            {
                ((Question)never).abandon();
            }
        }
        if (acm != null)
        {
            acm.close();
        }
    }
}

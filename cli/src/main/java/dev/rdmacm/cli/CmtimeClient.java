package dev.rdmacm.cli;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * cmtime's client ({@code run_client}, rdma-core 44): every step for every connection before the next
 * step, the event-driven ones (resolve addr, resolve route, connect, disconnect) ended by an event
 * thread, as cmtime's {@code process_events}; cmtime's retries for address and route errors, its
 * messages, its table. Where cmtime would spin forever for an event that never comes, a step here gives
 * up after {@link #STEP_LIMIT} and says how many connections did not finish it.
 */
final class CmtimeClient
{
    /** Longer than the REQ's 16 tries (98 s) with rdma_cm's timeouts. */
    static final Duration STEP_LIMIT = Duration.ofSeconds(150);

    private final RdmaCm cm;
    private final EventChannel channel;
    private final int connections;
    private final InetSocketAddress source;
    private final InetSocketAddress destination;
    private final int retries;
    private final Duration timeout;
    private final PrintStream out;
    private final PrintStream err;
    private final CmtimeTimes times;
    private final RdmaCmId[] ids;
    private final CmtimeQueuePair[] qps;
    private final boolean[] failed;
    private final int[] retriesLeft;
    private final Map<RdmaCmId, Integer> nodes = new IdentityHashMap<>();
    /** The round's CQs by device, made by its first QP there ({@link CmtimeCompletionQueues}). */
    private final Map<String, CmtimeCompletionQueues> cqs = new HashMap<>();
    private final int[] started = new int[CmtimeStep.values().length];
    /** Guards {@link #completed} and {@link #awaited}: the event thread counts, the steps' thread waits for the count. */
    private final Object progress = new Object();
    private final int[] completed = new int[CmtimeStep.values().length];
    /**
     * The count the steps' thread waits for, once it has made every call of the step (-1 before): the event
     * thread wakes it at that count alone, not at every event (a futex wake and a context switch each, on the
     * guest's two vCPUs that the CM's own threads need).
     */
    private final int[] awaited = new int[CmtimeStep.values().length];
    /** Cleared, then the event thread interrupted, at the round's end: a call that swallowed the interrupt still ends the loop. */
    private volatile boolean running;
    /** The round's device table: the event thread fills it as ids resolve ({@link #openDevice}), the create qp step reads it. */
    private volatile DeviceProtectionDomains devices;
    /** A synchronous call failed or a step gave up: the process's exit status. */
    private boolean broken;

    CmtimeClient(final RdmaCm cm, final EventChannel channel, final int connections, final InetSocketAddress source,
        final InetSocketAddress destination, final int retries, final Duration timeout, final PrintStream out, final PrintStream err)
    {
        this.cm = cm;
        this.channel = channel;
        this.connections = connections;
        this.source = source;
        this.destination = destination;
        this.retries = retries;
        this.timeout = timeout;
        this.out = out;
        this.err = err;
        this.times = new CmtimeTimes(connections);
        this.ids = new RdmaCmId[connections];
        this.qps = new CmtimeQueuePair[connections];
        this.failed = new boolean[connections];
        this.retriesLeft = new int[connections];
    }

    /** One round: alloc_nodes, run_client, cleanup_nodes and show_perf. False when a call failed or a step gave up. */
    boolean run(final DeviceProtectionDomains devices) throws InterruptedException
    {
        reset();
        this.devices = devices;
        createIds();
        running = true;
        final Thread events = Thread.ofPlatform().name("cmtime-events").start(this::processEvents);
        try
        {
            runSteps();
        }
        finally
        {
            destroyIds();
            running = false;
            events.interrupt();
            events.join();
            cqs.values().forEach(CmtimeCompletionQueues::close);
            cqs.clear();
        }
        times.print(out, source != null);
        return !broken;
    }

    /** The table's step totals in microseconds, of the round that ran last. */
    CmtimeTimes times()
    {
        return times;
    }

    private void reset()
    {
        times.reset();
        nodes.clear();
        Arrays.fill(ids, null);
        Arrays.fill(qps, null);
        Arrays.fill(failed, false);
        Arrays.fill(started, 0);
        synchronized (progress)
        {
            Arrays.fill(completed, 0);
            Arrays.fill(awaited, -1);
        }
        broken = false;
    }

    private void createIds()
    {
        out.println("creating id");
        times.start(CmtimeStep.CREATE_ID);
        for (int i = 0; i < connections; i++)
        {
            times.start(i, CmtimeStep.CREATE_ID);
            ids[i] = cm.createId(channel);
            nodes.put(ids[i], i);
            times.end(i, CmtimeStep.CREATE_ID);
        }
        times.end(CmtimeStep.CREATE_ID);
    }

    private void runSteps() throws InterruptedException
    {
        final ConnectionParameters parameters = new ConnectionParameters(new byte[0], 1, 1, false, retries, 0);
        if (source != null)
        {
            out.println("binding source address");
            times.start(CmtimeStep.BIND);
            for (int i = 0; i < connections; i++)
            {
                times.start(i, CmtimeStep.BIND);
                final int node = i;
                call("failure bind addr", i, () -> ids[node].bindAddr(source));
                times.end(i, CmtimeStep.BIND);
            }
            times.end(CmtimeStep.BIND);
        }
        eventStep("resolving address", CmtimeStep.RESOLVE_ADDR, "failure getting addr", i ->
        {
            retriesLeft[i] = retries;
            ids[i].resolveAddr(source, destination, timeout);
        });
        eventStep("resolving route", CmtimeStep.RESOLVE_ROUTE, "failure resolving route", i ->
        {
            retriesLeft[i] = retries;
            ids[i].resolveRoute(timeout);
        });
        out.println("creating qp");
        times.start(CmtimeStep.CREATE_QP);
        for (int i = 0; i < connections; i++)
        {
            if (failed[i])
            {
                continue;
            }
            times.start(i, CmtimeStep.CREATE_QP);
            final int node = i;
            if (call("failure creating qp", i, () ->
            {
                final String device = ids[node].binding().device();
                CmtimeCompletionQueues shared = cqs.get(device);
                if (shared == null)
                {
                    shared = CmtimeCompletionQueues.create(devices.context(device), CmtimeQueuePair.CAPABILITIES.maxRecvWr(),
                        CmtimeQueuePair.CAPABILITIES.maxSendWr());
                    cqs.put(device, shared);
                }
                qps[node] = CmtimeQueuePair.create(devices.pd(device), shared, ids[node]);
            }))
            {
                times.end(i, CmtimeStep.CREATE_QP);
            }
        }
        times.end(CmtimeStep.CREATE_QP);
        eventStep("connecting", CmtimeStep.CONNECT, "failure rconnecting", i -> ids[i].connect(parameters));
        eventStep("disconnecting", CmtimeStep.DISCONNECT, "failure disconnecting", i ->
        {
            ids[i].disconnect();
            qps[i].close();
            qps[i] = null;
        });
    }

    /** A step whose calls start something an event ends: every call, then until every event has come. */
    private void eventStep(final String message, final CmtimeStep step, final String failure, final Node call)
        throws InterruptedException
    {
        out.println(message);
        times.start(step);
        for (int i = 0; i < connections; i++)
        {
            if (failed[i])
            {
                continue;
            }
            times.start(i, step);
            final int node = i;
            if (call(failure, i, () -> call.run(node)))
            {
                started[step.ordinal()]++;
            }
        }
        awaitCompletions(step);
        times.end(step);
    }

    /**
     * Until every started connection has finished {@code step}. cmtime spins on {@code sched_yield}; a
     * JVM thread spinning beside the CM's own threads on a small machine would take their CPU, so this
     * waits to be told, which ends the step at the same moment.
     */
    private void awaitCompletions(final CmtimeStep step) throws InterruptedException
    {
        final int s = step.ordinal();
        final long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
        synchronized (progress)
        {
            awaited[s] = started[s];
            while (completed[s] < started[s])
            {
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    err.printf("%s: %d of %d connections did not finish within %d s%n", step.label(), started[s] - completed[s],
                        started[s], STEP_LIMIT.toSeconds());
                    broken = true;
                    return;
                }
                progress.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** A call of connection {@code i}; its failure is cmtime's perror and marks the connection failed. */
    private boolean call(final String failure, final int i, final Call call)
    {
        try
        {
            call.run();
            return true;
        }
        catch (final RuntimeException ex)
        {
            err.println(failure + ": " + ex.getMessage());
            failed[i] = true;
            broken = true;
            return false;
        }
    }

    private void destroyIds()
    {
        out.println("destroying id");
        times.start(CmtimeStep.DESTROY);
        for (int i = 0; i < connections; i++)
        {
            times.start(i, CmtimeStep.DESTROY);
            if (qps[i] != null)
            {
                qps[i].close();
                qps[i] = null;
            }
            if (ids[i] != null)
            {
                ids[i].destroy();
            }
            times.end(i, CmtimeStep.DESTROY);
        }
        times.end(CmtimeStep.DESTROY);
    }

    /**
     * cmtime's {@code process_events} and {@code cma_handler}, until the round ends: it blocks for each event as
     * {@code rdma_get_cm_event} does, and the round's end interrupts it. A timed wait read the clock three to
     * eight times an event, each a system call in a TCG guest (issue 32).
     */
    private void processEvents()
    {
        try
        {
            while (running)
            {
                final CmEvent event = channel.getEvent();
                handle(event);
                event.ack();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(final CmEvent event)
    {
        final Integer node = nodes.get(event.id());
        if (node == null)
        {
            return;
        }
        final int n = node;
        switch (event)
        {
            case CmEvent.AddrResolved resolved ->
            {
                openDevice(n);
                finish(n, CmtimeStep.RESOLVE_ADDR);
            }
            case CmEvent.RouteResolved resolved -> finish(n, CmtimeStep.RESOLVE_ROUTE);
            case CmEvent.Established established -> finish(n, CmtimeStep.CONNECT);
            case CmEvent.Disconnected disconnected -> finish(n, CmtimeStep.DISCONNECT);
            case CmEvent.AddrError error -> retryOrFail(n, CmtimeStep.RESOLVE_ADDR, event,
                () -> ids[n].resolveAddr(source, destination, timeout));
            case CmEvent.RouteError error -> retryOrFail(n, CmtimeStep.RESOLVE_ROUTE, event, () -> ids[n].resolveRoute(timeout));
            case CmEvent.ConnectError error -> connectFailed(n, event);
            case CmEvent.Unreachable error -> connectFailed(n, event);
            case CmEvent.Rejected error -> connectFailed(n, event);
            default ->
            {
                // DEVICE_REMOVAL (cleanup follows the round), TIMEWAIT_EXIT and the rest: cmtime ignores them too
            }
        }
    }

    /**
     * librdmacm's {@code ucma_process_addr_resolved}: the id's device is opened and its PD made ({@code ucma_get_device},
     * from the list {@code ucma_init} made) when the first of its ids is resolved, on the thread that takes the event,
     * not in the create qp step. A failure is left for that step, whose {@code devices.pd} call meets it again and
     * reports it as cmtime does.
     */
    private void openDevice(final int n)
    {
        try
        {
            devices.pd(ids[n].binding().device());
        }
        catch (final RuntimeException ex)
        {
            // reported by the create qp step
        }
    }

    private void retryOrFail(final int n, final CmtimeStep step, final CmEvent event, final Call retry)
    {
        if (retriesLeft[n]-- > 0)
        {
            try
            {
                retry.run();
                return;
            }
            catch (final RuntimeException ex)
            {
                // cmtime falls through to the error report when the retry cannot start
            }
        }
        out.println("RDMA_CM_EVENT_" + event.type() + ", error: " + event.status());
        failed[n] = true;
        finish(n, step);
    }

    private void connectFailed(final int n, final CmEvent event)
    {
        out.println("event: RDMA_CM_EVENT_" + event.type() + ", error: " + event.status());
        failed[n] = true;
        finish(n, CmtimeStep.CONNECT);
    }

    private void finish(final int n, final CmtimeStep step)
    {
        times.end(n, step);
        synchronized (progress)
        {
            if (++completed[step.ordinal()] == awaited[step.ordinal()])
            {
                progress.notify();
            }
        }
    }

    @FunctionalInterface
    private interface Call
    {
        void run();
    }

    @FunctionalInterface
    private interface Node
    {
        void run(int node);
    }
}

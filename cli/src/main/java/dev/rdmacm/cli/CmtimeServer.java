package dev.rdmacm.cli;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * cmtime's server ({@code run_server}, rdma-core 44): a listener with backlog 0; each CONNECT_REQUEST
 * handed to a request thread that creates the QP and accepts (or prints {@code failing connection
 * request}, rejects and destroys the id), each DISCONNECTED to a disconnect thread that disconnects,
 * destroys the QP and the id. The event thread only dispatches, as cmtime's does, so a slow accept
 * never holds up the events behind it. It serves until the process is stopped.
 */
final class CmtimeServer
{
    private final RdmaCm cm;
    private final EventChannel channel;
    private final InetSocketAddress bind;
    private final PrintStream err;
    private final Map<RdmaCmId, CmtimeQueuePair> qps = new ConcurrentHashMap<>();
    /** The CQs of every QP by device, made by the first request there, as cmtime's static attributes share them; the request thread's. */
    private final Map<String, CmtimeCompletionQueues> cqs = new ConcurrentHashMap<>();

    CmtimeServer(final RdmaCm cm, final EventChannel channel, final InetSocketAddress bind, final PrintStream err)
    {
        this.cm = cm;
        this.channel = channel;
        this.bind = bind;
        this.err = err;
    }

    /** Listens and serves until interrupted; the listener, every connection and both threads are gone when it returns. */
    void serve() throws InterruptedException
    {
        final RdmaCmId listener = cm.createId(channel);
        try (DeviceProtectionDomains devices = new DeviceProtectionDomains();
             ExecutorService requests = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("cmtime-requests").factory());
             ExecutorService disconnects = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("cmtime-disconnects").factory()))
        {
            try
            {
                listener.bindAddr(bind);
                listener.listen(0);
                err.println("listening on " + bind.getAddress().getHostAddress() + " port " + listener.sourcePort());
                while (!Thread.currentThread().isInterrupted())
                {
                    final CmEvent event = channel.getEvent();
                    switch (event)
                    {
                        // the device table is the request thread's alone
                        case CmEvent.ConnectRequest request -> requests.execute(() -> accept(devices, request));
                        case CmEvent.Disconnected disconnected -> disconnects.execute(() -> close(disconnected.id()));
                        default ->
                        {
                        }
                    }
                    event.ack();
                }
            }
            finally
            {
                requests.shutdownNow();
                disconnects.shutdownNow();
                qps.keySet().forEach(RdmaCmId::destroy);
                qps.values().forEach(CmtimeQueuePair::close);
                cqs.values().forEach(this::closeQuietly);
                listener.destroy();
            }
        }
    }

    /**
     * {@code __req_handler}. cmtime accepts with no parameters, which gives the request's read depths
     * back (librdmacm caps them at the device's limits, above 1 on every device, and cmtime asks for 1).
     */
    private void accept(final DeviceProtectionDomains devices, final CmEvent.ConnectRequest request)
    {
        final RdmaCmId id = request.id();
        try
        {
            final String device = id.binding().device();
            final CmtimeCompletionQueues shared = cqs.computeIfAbsent(device, name -> CmtimeCompletionQueues.create(devices.context(name),
                CmtimeQueuePair.CAPABILITIES.maxRecvWr(), CmtimeQueuePair.CAPABILITIES.maxSendWr()));
            qps.put(id, CmtimeQueuePair.create(devices.pd(device), shared, id));
            id.accept(ConnectionParameters.of(request.parameters().responderResources(), request.parameters().initiatorDepth()));
        }
        catch (final RuntimeException ex)
        {
            err.println("failure accepting: " + ex.getMessage());
            err.println("failing connection request");
            final CmtimeQueuePair qp = qps.remove(id);
            if (qp != null)
            {
                qp.close();
            }
            try
            {
                id.reject(new byte[0]);
            }
            catch (final RdmaCmException rejectFailed)
            {
                err.println("failure rejecting: " + rejectFailed.getMessage());
            }
            id.destroy();
        }
    }

    /** A request still being accepted may hold a QP on {@code shared}: its CQs then stay (EBUSY), as cmtime's would. */
    private void closeQuietly(final CmtimeCompletionQueues shared)
    {
        try
        {
            shared.close();
        }
        catch (final RuntimeException ex)
        {
            err.println("failure destroying the CQs: " + ex.getMessage());
        }
    }

    /** {@code disc_handler_thread}: rdma_disconnect, rdma_destroy_qp, rdma_destroy_id. */
    private void close(final RdmaCmId id)
    {
        try
        {
            id.disconnect();
        }
        catch (final RdmaCmException ex)
        {
            err.println("failure disconnecting: " + ex.getMessage());
        }
        final CmtimeQueuePair qp = qps.remove(id);
        if (qp != null)
        {
            qp.close();
        }
        id.destroy();
    }
}

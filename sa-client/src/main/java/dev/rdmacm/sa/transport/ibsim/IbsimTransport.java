package dev.rdmacm.sa.transport.ibsim;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.MadTransportException;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A MAD transport attached to an ibsim fabric running in UDP mode ({@code ibsim -r -l P}) as a named
 * node, speaking ibsim's own socket protocol: no libibumad, no LD_PRELOAD.
 * <p>
 * Attaching: bind the data socket first (ibsim connects back to it during CONNECT), send a
 * little-endian {@link SimCtl} CONNECT carrying {@link SimClientInfo} with the data port as id, then
 * read NodeInfo and PortInfo for our LID, port GUID (NodeGUID + LocalPortNum) and the SM's LID and SL.
 * MADs travel as 288-byte {@link SimRequest}s between our data socket and ibsim's port P+1+clientid.
 * <p>
 * ibsim overwrites bits 63..48 of every request's TID with our client index, so the engine matches
 * responses on the low 48 bits. A packet ibsim cannot deliver comes back with status 110; it is
 * counted in {@link #bouncedPackets()} and dropped.
 * <p>
 * The engine waits on a {@link Selector} holding the data socket: {@code select(timeout)} returns when
 * a datagram arrives, and {@link Selector#wakeup()} is the cross-thread wake-up.
 */
public final class IbsimTransport implements MadTransport
{
    private static final long CTL_POLL_NANOS = 1_000_000;

    private final DatagramChannel ctl;
    private final DatagramChannel data;
    private final Selector selector;
    private final Consumer<SelectionKey> ignoreKey = key -> { };
    private final int clientIndex;
    private final LocalPort localPort;
    private final ByteBuffer sendBytes = ByteBuffer.allocateDirect(SimRequest.LENGTH);
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(sendBytes);
    private final SimRequest sendRequest = new SimRequest().wrap(sendBuffer, 0);
    private final ByteBuffer receiveBytes = ByteBuffer.allocateDirect(2 * SimRequest.LENGTH);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveBytes);
    private final SimRequest receiveRequest = new SimRequest().wrap(receiveBuffer, 0);
    private final MadSource source = new MadSource();
    private long bouncedPackets;
    private long malformedPackets;
    private long unreachable;
    private boolean closed;

    private IbsimTransport(
        final DatagramChannel ctl, final DatagramChannel data, final Selector selector, final int clientIndex,
        final LocalPort localPort)
    {
        this.ctl = ctl;
        this.data = data;
        this.selector = selector;
        this.clientIndex = clientIndex;
        this.localPort = localPort;
    }

    /**
     * Attaches to the ibsim at {@code host:ctlPort} as {@code node} (a node name or description from the
     * topology file).
     *
     * @throws MadTransportException naming the step that failed: no answer, unknown node, no free slot.
     */
    public static IbsimTransport attach(final String host, final int ctlPort, final String node, final Duration timeout)
    {
        if (ctlPort <= 0 || ctlPort > 0xffff - 11)
        {
            throw new IllegalArgumentException("ibsim ctl port " + ctlPort + " out of range 1.." + (0xffff - 11));
        }
        final String where = "ibsim at " + host + ":" + ctlPort;
        DatagramChannel ctl = null;
        DatagramChannel data = null;
        Selector selector = null;
        try
        {
            final InetAddress address = InetAddress.getByName(host);
            ctl = DatagramChannel.open(StandardProtocolFamily.INET);
            data = DatagramChannel.open(StandardProtocolFamily.INET);
            final InetAddress local = address.isLoopbackAddress() ? address : null;
            ctl.bind(new InetSocketAddress(local, 0));
            data.bind(new InetSocketAddress(local, 0));
            ctl.configureBlocking(false);
            data.configureBlocking(false);
            ctl.connect(new InetSocketAddress(address, ctlPort));
            final int dataPort = ((InetSocketAddress)data.getLocalAddress()).getPort();

            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(SimCtl.LENGTH));
            final SimCtl message = new SimCtl().wrap(buffer, 0);
            message.reset(0, SimCtl.TYPE_CONNECT, SimClientInfo.LENGTH);
            new SimClientInfo().wrap(buffer, message.dataOffset()).id(dataPort).qp(0).issm(0).nodeId(node);
            exchange(ctl, message, timeout, where, "CONNECT as '" + node + "'");
            if (message.type() != SimCtl.TYPE_CONNECT)
            {
                throw new MadTransportException(where + " refused CONNECT as '" + node +
                    "': no such node in its topology, or all 10 client slots are taken");
            }
            final int index = (int)new SimClientInfo().wrap(buffer, message.dataOffset()).id();
            data.connect(new InetSocketAddress(address, ctlPort + 1 + index));

            message.reset(index, SimCtl.TYPE_GET_NODEINFO, SimCtl.DATA_LENGTH);
            exchange(ctl, message, timeout, where, "GET_NODEINFO");
            final long nodeGuid = SimNodeInfo.nodeGuid(buffer, message.dataOffset());

            message.reset(index, SimCtl.TYPE_GET_PORTINFO, SimCtl.DATA_LENGTH);
            exchange(ctl, message, timeout, where, "GET_PORTINFO");
            final int off = message.dataOffset();
            final long portGuid = nodeGuid + SimPortInfo.localPortNum(buffer, off);
            final LocalPort port = new LocalPort(
                node, SimPortInfo.lid(buffer, off), portGuid, new Gid(SimPortInfo.gidPrefix(buffer, off), portGuid),
                SimPortInfo.masterSmLid(buffer, off), SimPortInfo.masterSmSl(buffer, off));
            selector = Selector.open();
            data.register(selector, SelectionKey.OP_READ);
            return new IbsimTransport(ctl, data, selector, index, port);
        }
        catch (final IOException ex)
        {
            closeQuietly(selector);
            closeQuietly(ctl);
            closeQuietly(data);
            throw new MadTransportException("cannot attach to " + where + " as '" + node + "': " + ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(selector);
            closeQuietly(ctl);
            closeQuietly(data);
            throw ex;
        }
    }

    /** Sends {@code message} on the ctl socket and waits for the reply, which ibsim writes over it. */
    private static void exchange(
        final DatagramChannel ctl, final SimCtl message, final Duration timeout, final String where, final String step)
        throws IOException
    {
        final ByteBuffer bytes = message.buffer().byteBuffer().duplicate().clear().limit(SimCtl.LENGTH);
        ctl.write(bytes);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            bytes.clear().limit(SimCtl.LENGTH);
            final int read;
            try
            {
                read = ctl.read(bytes);
            }
            catch (final PortUnreachableException ex)
            {
                throw new MadTransportException(where + ": " + step + " got ICMP port unreachable; is ibsim running with -r?", ex);
            }
            if (read == SimCtl.LENGTH && message.magic() == (SimCtl.MAGIC & 0xffff_ffffL))
            {
                return;
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new MadTransportException(where + ": no answer to " + step + " within " + timeout.toMillis() + " ms");
            }
            LockSupport.parkNanos(CTL_POLL_NANOS);
        }
    }

    @Override
    public LocalPort localPort()
    {
        return localPort;
    }

    /** The slot ibsim gave us; it is also written into bits 63..48 of our TIDs. */
    public int clientIndex()
    {
        return clientIndex;
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        if (length > SimRequest.MAD_CAPACITY)
        {
            throw new IllegalArgumentException("MAD of " + length + " bytes: ibsim carries at most " + SimRequest.MAD_CAPACITY);
        }
        sendRequest.dlid(destination.lid()).slid(localPort.lid()).dqp(destination.remoteQpn()).sqp(1).status(0).length(length);
        sendBuffer.putBytes(sendRequest.madOffset(), mad, offset, length);
        if (length < SimRequest.MAD_CAPACITY)
        {
            sendBuffer.setMemory(sendRequest.madOffset() + length, SimRequest.MAD_CAPACITY - length, (byte)0);
        }
        sendBytes.clear();
        try
        {
            return data.write(sendBytes) == SimRequest.LENGTH;
        }
        catch (final PortUnreachableException ex)
        {
            unreachable++;
            return false;
        }
        catch (final IOException ex)
        {
            throw new MadTransportException("ibsim client " + clientIndex + ": send failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        int delivered = 0;
        while (delivered < limit)
        {
            receiveBytes.clear();
            final int read;
            try
            {
                read = data.read(receiveBytes);
            }
            catch (final PortUnreachableException ex)
            {
                unreachable++;
                continue;
            }
            catch (final IOException ex)
            {
                throw new MadTransportException("ibsim client " + clientIndex + ": receive failed: " + ex.getMessage(), ex);
            }
            if (read <= 0)
            {
                break;
            }
            if (read != SimRequest.LENGTH)
            {
                malformedPackets++;
                continue;
            }
            if (receiveRequest.status() != 0)
            {
                bouncedPackets++;
                continue;
            }
            final long length = receiveRequest.length();
            if (length <= 0 || length > SimRequest.MAD_CAPACITY)
            {
                malformedPackets++;
                continue;
            }
            delivered++;
            receiver.onMad(source.set(receiveRequest.slid(), (int)receiveRequest.sqp()), receiveBuffer,
                receiveRequest.madOffset(), (int)length);
        }
        return delivered;
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
        try
        {
            if (deadlineNanos == Long.MAX_VALUE)
            {
                selector.select(ignoreKey, 0);
                return;
            }
            final long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0)
            {
                selector.selectNow(ignoreKey);
                return;
            }
            // Rounded up: waking before the deadline would only make the engine wait again.
            selector.select(ignoreKey, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999)));
        }
        catch (final IOException ex)
        {
            throw new MadTransportException("ibsim client " + clientIndex + ": select failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public void wakeUp()
    {
        selector.wakeup();
    }

    /** Our own packets ibsim sent back (status 110): no route, or nobody to receive them. */
    public long bouncedPackets()
    {
        return bouncedPackets;
    }

    /** Datagrams of the wrong size or with an impossible MAD length. */
    public long malformedPackets()
    {
        return malformedPackets;
    }

    /** ICMP port-unreachable seen on the data socket: ibsim is gone. */
    public long unreachable()
    {
        return unreachable;
    }

    /** Detaches (DISCONNECT frees our client slot) and closes both sockets. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(SimCtl.LENGTH));
            new SimCtl().wrap(buffer, 0).reset(clientIndex, SimCtl.TYPE_DISCONNECT, 0);
            ctl.write(buffer.byteBuffer().duplicate().clear().limit(SimCtl.LENGTH));
        }
        catch (final IOException ignored)
        {
            // ibsim is gone: there is no slot left to free
        }
        finally
        {
            closeQuietly(selector);
            closeQuietly(ctl);
            closeQuietly(data);
        }
    }

    private static void closeQuietly(final Closeable channel)
    {
        if (channel == null)
        {
            return;
        }
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing a UDP socket or its selector cannot lose data
        }
    }

    @Override
    public String toString()
    {
        return "IbsimTransport{client " + clientIndex + ", " + localPort + "}";
    }
}

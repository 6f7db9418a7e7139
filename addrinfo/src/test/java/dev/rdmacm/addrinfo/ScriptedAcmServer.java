package dev.rdmacm.addrinfo;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test double for ibacm on 127.0.0.1 (ibacm itself cannot start without RDMA devices, reference §1.2):
 * answers every ACM RESOLVE with {@link AcmScript}'s path and source and records each request as text
 * ({@link #describe}). ACM message layout ({@code infiniband/acm.h}), lengths and flags in host order:
 * <pre>
 * header  0 version | 1 opcode | 2 status | 3 data[3] | 6 length (u16) | 8 tid (u64)        16 bytes
 * entry   0 flags (u32) | 4 type (u16) | 6 reserved (u16) | 8 info (64 bytes)              72 bytes
 * </pre>
 */
final class ScriptedAcmServer implements AutoCloseable
{
    static final int HEADER_LENGTH = 16;
    static final int LENGTH_OFFSET = 6;
    static final int ENTRY_LENGTH = 72;
    static final int ENTRY_FLAGS_OFFSET = 0;
    static final int ENTRY_TYPE_OFFSET = 4;
    static final int ENTRY_INFO_OFFSET = 8;
    static final int OP_RESOLVE_ACK = 0x81;
    static final int FLAG_SOURCE = 1;
    static final int FLAG_DEST = 2;
    static final int FLAG_NODELAY = 1 << 30;
    static final int TYPE_IP = 2;
    static final int TYPE_IP6 = 3;
    static final int TYPE_PATH = 0x10;
    private static final ByteOrder HOST = ByteOrder.nativeOrder();

    final List<String> requests = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private final Thread acceptor;

    ScriptedAcmServer() throws IOException
    {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().name("scripted-acm").start(this::serve);
    }

    int port()
    {
        return server.getLocalPort();
    }

    private void serve()
    {
        while (!server.isClosed())
        {
            try (Socket client = server.accept())
            {
                final DataInputStream in = new DataInputStream(client.getInputStream());
                final OutputStream out = client.getOutputStream();
                while (true)
                {
                    final byte[] request = readRequest(in);
                    requests.add(describe(request));
                    out.write(reply(request));
                    out.flush();
                }
            }
            catch (final EOFException endOfClient)
            {
                // the harness exited; wait for the next one
            }
            catch (final IOException closed)
            {
                return;
            }
        }
    }

    private static byte[] readRequest(final DataInputStream in) throws IOException
    {
        final byte[] header = new byte[HEADER_LENGTH];
        in.readFully(header);
        final int length = new UnsafeBuffer(header).getShort(LENGTH_OFFSET, HOST) & 0xffff;
        final byte[] request = new byte[length];
        System.arraycopy(header, 0, request, 0, HEADER_LENGTH);
        in.readFully(request, HEADER_LENGTH, length - HEADER_LENGTH);
        return request;
    }

    /** Header (RESOLVE|ACK, status 0), the scripted PATH entry, then a SOURCE entry of the destination's family. */
    private static byte[] reply(final byte[] request)
    {
        final boolean ipv6 = destinationType(request) == TYPE_IP6;
        final byte[] reply = new byte[HEADER_LENGTH + 2 * ENTRY_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(reply);
        buffer.putByte(0, (byte)1);
        buffer.putByte(1, (byte)OP_RESOLVE_ACK);
        buffer.putShort(LENGTH_OFFSET, (short)reply.length, HOST);
        final byte[] pathData = AcmScript.pathData();
        buffer.putBytes(HEADER_LENGTH, pathData);
        buffer.putShort(HEADER_LENGTH + ENTRY_TYPE_OFFSET, (short)TYPE_PATH, HOST);
        final int source = HEADER_LENGTH + ENTRY_LENGTH;
        buffer.putInt(source + ENTRY_FLAGS_OFFSET, FLAG_SOURCE, HOST);
        buffer.putShort(source + ENTRY_TYPE_OFFSET, (short)(ipv6 ? TYPE_IP6 : TYPE_IP), HOST);
        buffer.putBytes(source + ENTRY_INFO_OFFSET, ipv6 ? AcmScript.IPV6_SOURCE.address() : AcmScript.IPV4_SOURCE.addressBytes());
        return reply;
    }

    private static int destinationType(final byte[] request)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(request);
        for (int entry = HEADER_LENGTH; entry + ENTRY_LENGTH <= request.length; entry += ENTRY_LENGTH)
        {
            if ((buffer.getInt(entry + ENTRY_FLAGS_OFFSET, HOST) & FLAG_DEST) != 0)
            {
                return buffer.getShort(entry + ENTRY_TYPE_OFFSET, HOST);
            }
        }
        return TYPE_IP;
    }

    /** {@code flags=0x.. type=0x.. info=HEX} per entry, info cut to the type's size; {@code -} for none. */
    static String describe(final byte[] request)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(request);
        final StringBuilder text = new StringBuilder();
        for (int entry = HEADER_LENGTH; entry + ENTRY_LENGTH <= request.length; entry += ENTRY_LENGTH)
        {
            final int type = buffer.getShort(entry + ENTRY_TYPE_OFFSET, HOST);
            final int infoLength = type == TYPE_IP ? 4 : type == TYPE_IP6 ? 16 : 64;
            final byte[] info = new byte[infoLength];
            buffer.getBytes(entry + ENTRY_INFO_OFFSET, info);
            text.append(entry(buffer.getInt(entry + ENTRY_FLAGS_OFFSET, HOST), type, info));
        }
        return text.isEmpty() ? "-" : text.toString();
    }

    /** The same text for our side's query, so the two request lists compare line by line. */
    static String describe(final AcmQuery query)
    {
        final StringBuilder text = new StringBuilder();
        if (query.source() != null)
        {
            text.append(ipEntry(FLAG_SOURCE, query.source()));
        }
        if (query.destination() != null)
        {
            text.append(ipEntry(FLAG_DEST | (query.noDelay() ? FLAG_NODELAY : 0), query.destination()));
        }
        if (query.pathRecord() != null)
        {
            text.append(entry(0, TYPE_PATH, query.pathRecord()));
        }
        return text.isEmpty() ? "-" : text.toString();
    }

    private static String ipEntry(final int flags, final RdmaSockaddr address)
    {
        return address instanceof Ipv4Sockaddr v4 ? entry(flags, TYPE_IP, v4.addressBytes()) :
            entry(flags, TYPE_IP6, ((Ipv6Sockaddr)address).address());
    }

    private static String entry(final int flags, final int type, final byte[] info)
    {
        return "[flags=0x" + Integer.toHexString(flags) + " type=0x" + Integer.toHexString(type) + " info=" +
            HexFormat.of().formatHex(info) + "]";
    }

    @Override
    public void close() throws Exception
    {
        server.close();
        acceptor.join();
    }
}

package dev.rdmacm.sa.testing;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.ThreadParker;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * An in-memory SA for what OpenSM under ibsim cannot show: a GetTableResp sent as real RMPP segments
 * (windows, ACKs, segments lost or repeated), BUSY answers, a ClassPortInfo redirect, an SA that
 * never answers. Everything else is tested against OpenSM.
 * <p>
 * It is a transport: the engine's sends reach it directly and its answers come back through
 * {@link #poll}. Configure it before handing it to a client; after that only the engine thread uses it.
 */
public final class ScriptedSa implements MadTransport
{
    public static final int LOCAL_LID = 4;
    public static final int SA_LID = 1;
    private static final int SA_DATA = 56;
    private static final int SEGMENT_DATA = 200;

    private record Packet(int sourceLid, int sourceQp, byte[] mad)
    {
    }

    private static final class Transfer
    {
        byte[] template;
        byte[] data;
        int segments;
        int sourceLid;
        int sourceQp;
    }

    private final LocalPort localPort = new LocalPort(
        "ScriptedHca", LOCAL_LID, 0x100004L, new Gid(Gid.LINK_LOCAL_PREFIX, 0x100004L), SA_LID, 0);
    private final Map<Integer, List<byte[]>> tables = new HashMap<>();
    private final ArrayDeque<Packet> outbox = new ArrayDeque<>();
    private final MadSource source = new MadSource();
    private final ThreadParker parker = new ThreadParker();
    private final Map<Long, Transfer> transfers = new HashMap<>();
    private final Set<Long> loseOnce = new HashSet<>();
    private final Set<Long> repeatOnce = new HashSet<>();
    private int busyAnswers;
    private boolean silent;
    private boolean dropQueries;
    private int responseTimeValue = 16;
    private int redirectLid;
    private int redirectQp;
    private long requests;
    private long acks;

    /** Answers Get/GetTable of {@code attributeId} with these records (each a multiple of 8 bytes). */
    public ScriptedSa records(final int attributeId, final List<byte[]> records)
    {
        tables.put(attributeId, List.copyOf(records));
        return this;
    }

    /** The first {@code count} requests get status BUSY. */
    public ScriptedSa busy(final int count)
    {
        busyAnswers = count;
        return this;
    }

    /** Answers ClassPortInfo only: an SA that is up but drops every query. */
    public ScriptedSa dropQueries(final boolean value)
    {
        dropQueries = value;
        return this;
    }

    /** Answers nothing at all: a dead SA. */
    public ScriptedSa silent(final boolean value)
    {
        silent = value;
        return this;
    }

    public ScriptedSa responseTimeValue(final int value)
    {
        responseTimeValue = value;
        return this;
    }

    /** Answers queries sent to the SM LID with a redirect to {@code lid}/{@code qp}, and serves them there. */
    public ScriptedSa redirectTo(final int lid, final int qp)
    {
        redirectLid = lid;
        redirectQp = qp;
        return this;
    }

    /** RMPP segment {@code segment} of every transfer is lost the first time it is sent. */
    public ScriptedSa loseSegmentOnce(final long segment)
    {
        loseOnce.add(segment);
        return this;
    }

    /** RMPP segment {@code segment} is sent twice the first time. */
    public ScriptedSa repeatSegmentOnce(final long segment)
    {
        repeatOnce.add(segment);
        return this;
    }

    public long requests()
    {
        return requests;
    }

    public long acks()
    {
        return acks;
    }

    @Override
    public LocalPort localPort()
    {
        return localPort;
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        final UnsafeBuffer request = new UnsafeBuffer(new byte[length]);
        request.putBytes(0, mad, offset, length);
        final MadHeader header = new MadHeader().wrap(request, 0, length);
        final boolean atRedirect = redirectLid != 0 && destination.lid() == redirectLid && destination.remoteQpn() == redirectQp;
        final boolean atSm = destination.lid() == SA_LID && destination.remoteQpn() == Gsi.QPN;
        if (silent || (!atSm && !atRedirect))
        {
            return true;
        }
        final int sourceLid = destination.lid();
        final int sourceQp = destination.remoteQpn();
        final int rmppType = request.getByte(25) & 0xff;
        if (rmppType == 2)
        {
            acks++;
            onAck(header.transactionId(), request.getInt(28, BIG_ENDIAN) & 0xffff_ffffL, request.getInt(32, BIG_ENDIAN) & 0xffff_ffffL);
            return true;
        }
        requests++;
        final int attribute = header.attributeId();
        if (attribute == 0x0001)
        {
            answer(request, sourceLid, sourceQp, 0x81, 0, classPortInfo(false));
            return true;
        }
        if (dropQueries)
        {
            return true;
        }
        if (redirectLid != 0 && atSm)
        {
            final UnsafeBuffer response = template(request, header.method() | 0x80, 0x0002);
            response.putShort(16, (short)0x0001, BIG_ENDIAN);
            response.putBytes(SA_DATA, classPortInfo(true));
            outbox.add(new Packet(sourceLid, sourceQp, response.byteArray()));
            return true;
        }
        if (busyAnswers > 0)
        {
            busyAnswers--;
            outbox.add(new Packet(sourceLid, sourceQp, template(request, header.method() | 0x80, 0x0001).byteArray()));
            return true;
        }
        final List<byte[]> records = tables.getOrDefault(attribute, List.of());
        if (header.method() == 0x01)
        {
            if (records.isEmpty())
            {
                outbox.add(new Packet(sourceLid, sourceQp, template(request, 0x81, 0x0300).byteArray()));
            }
            else
            {
                answer(request, sourceLid, sourceQp, 0x81, records.get(0).length / 8, records.get(0));
            }
            return true;
        }
        if (!tables.containsKey(attribute))
        {
            // an SA that answers a table request it cannot serve with a plain error, no RMPP
            outbox.add(new Packet(sourceLid, sourceQp, template(request, header.method() | 0x80, 0x0300).byteArray()));
            return true;
        }
        startTransfer(request, sourceLid, sourceQp, records);
        return true;
    }

    private byte[] classPortInfo(final boolean redirect)
    {
        final UnsafeBuffer cpi = new UnsafeBuffer(new byte[72]);
        cpi.putByte(0, (byte)1);
        cpi.putByte(1, (byte)2);
        cpi.putShort(2, (short)0x2602, BIG_ENDIAN);
        cpi.putInt(4, responseTimeValue & 0x1f, BIG_ENDIAN);
        if (redirect)
        {
            cpi.putShort(28, (short)redirectLid, BIG_ENDIAN);
            cpi.putInt(32, redirectQp, BIG_ENDIAN);
            cpi.putInt(36, (int)Gsi.QKEY, BIG_ENDIAN);
        }
        return cpi.byteArray();
    }

    private void answer(final UnsafeBuffer request, final int sourceLid, final int sourceQp, final int method,
        final int attributeOffset, final byte[] record)
    {
        final UnsafeBuffer response = template(request, method, 0);
        response.putShort(44, (short)attributeOffset, BIG_ENDIAN);
        response.putBytes(SA_DATA, record, 0, Math.min(record.length, SEGMENT_DATA));
        outbox.add(new Packet(sourceLid, sourceQp, response.byteArray()));
    }

    private static UnsafeBuffer template(final UnsafeBuffer request, final int method, final int status)
    {
        final UnsafeBuffer response = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        response.putBytes(0, request, 0, MadHeader.LENGTH);
        new MadHeader().wrap(response, 0).method(method).status(status);
        return response;
    }

    private void startTransfer(final UnsafeBuffer request, final int sourceLid, final int sourceQp, final List<byte[]> records)
    {
        final Transfer transfer = new Transfer();
        final int recordLength = records.isEmpty() ? 0 : records.get(0).length;
        transfer.data = new byte[recordLength * records.size()];
        for (int i = 0; i < records.size(); i++)
        {
            System.arraycopy(records.get(i), 0, transfer.data, i * recordLength, recordLength);
        }
        final UnsafeBuffer template = template(request, 0x92, 0);
        template.putShort(44, (short)(recordLength / 8), BIG_ENDIAN);
        transfer.template = template.byteArray();
        transfer.segments = Math.max(1, (transfer.data.length + SEGMENT_DATA - 1) / SEGMENT_DATA);
        transfer.sourceLid = sourceLid;
        transfer.sourceQp = sourceQp;
        final long tid = new MadHeader().wrap(request, 0, MadHeader.LENGTH).transactionId();
        transfers.put(tid, transfer);
        sendSegment(transfer, 1);
    }

    private void onAck(final long tid, final long segment, final long newWindowLast)
    {
        final Transfer transfer = transfers.get(tid);
        if (transfer == null)
        {
            return;
        }
        if (segment >= transfer.segments)
        {
            transfers.remove(tid);
            return;
        }
        for (long next = segment + 1; next <= Math.min(newWindowLast, transfer.segments); next++)
        {
            sendSegment(transfer, next);
        }
    }

    private void sendSegment(final Transfer transfer, final long segment)
    {
        if (loseOnce.remove(segment))
        {
            return;
        }
        final UnsafeBuffer mad = new UnsafeBuffer(transfer.template.clone());
        final boolean last = segment == transfer.segments;
        final int from = (int)(segment - 1) * SEGMENT_DATA;
        final int count = Math.min(SEGMENT_DATA, transfer.data.length - from);
        mad.putByte(24, (byte)1);
        mad.putByte(25, (byte)1);
        mad.putByte(26, (byte)(0x01 | (segment == 1 ? 0x02 : 0) | (last ? 0x04 : 0)));
        mad.putInt(28, (int)segment, BIG_ENDIAN);
        final int payloadLength = segment == 1 ? 20 + transfer.data.length : last ? 20 + count : 0;
        mad.putInt(32, payloadLength, BIG_ENDIAN);
        if (count > 0)
        {
            mad.putBytes(SA_DATA, transfer.data, from, count);
        }
        final Packet packet = new Packet(transfer.sourceLid, transfer.sourceQp, mad.byteArray());
        outbox.add(packet);
        if (repeatOnce.remove(segment))
        {
            outbox.add(new Packet(packet.sourceLid, packet.sourceQp, packet.mad.clone()));
        }
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        int delivered = 0;
        while (delivered < limit && !outbox.isEmpty())
        {
            final Packet packet = outbox.pollFirst();
            delivered++;
            receiver.onMad(source.set(packet.sourceLid, packet.sourceQp), new UnsafeBuffer(packet.mad), 0, packet.mad.length);
        }
        return delivered;
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
        // Answers are made on the engine thread during send(): there is nothing to wait for but them.
        if (outbox.isEmpty())
        {
            parker.await(deadlineNanos);
        }
    }

    @Override
    public void wakeUp()
    {
        parker.wakeUp();
    }

    @Override
    public void close()
    {
        outbox.clear();
    }

    /** Records for tests: {@code count} records of {@code length} bytes, record i filled with byte i+1. */
    public static List<byte[]> numberedRecords(final int count, final int length)
    {
        final List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final byte[] record = new byte[length];
            java.util.Arrays.fill(record, (byte)(i + 1));
            records.add(record);
        }
        return records;
    }
}

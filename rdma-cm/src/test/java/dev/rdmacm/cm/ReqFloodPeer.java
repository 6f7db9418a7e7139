package dev.rdmacm.cm;

import dev.rdmacm.loop.PollSet;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.umad.AgentRegistration;
import dev.rdmacm.umad.UmadAgent;
import dev.rdmacm.umad.UmadPort;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The raw CM peer of {@link ListenBacklogInGuest} as a main, for a listener that is not ours: the
 * kernel's, in the other guest (conformance's {@code ListenBacklogAcrossTheWire}). On {@code DEVICE}'s
 * port 1 it registers the CM class on umad (so no ib_cm may be loaded here) and sends COUNT REQs with
 * distinct comm IDs and QPNs to RDMA_PS_TCP {@code PORT} of {@code LISTENER}, {@value #BATCH} at a time
 * with a pause between batches, as the wire takes them; then it keeps reading for
 * {@value #LINGER_SECONDS} s. It prints "flood sent=N", "flood millis=N" and "flood received ATTRIBUTE=N"
 * for every CM MAD that came back, by attribute ("flood received none=0" when none came).
 * Usage: ReqFloodPeer DEVICE OWN_ADDRESS LISTENER PORT COUNT
 */
public final class ReqFloodPeer
{
    private static final int DEVICE_PORT = 1;
    private static final int BATCH = 32;
    private static final long PAUSE_MILLIS = 4;
    private static final int LINGER_SECONDS = 10;
    private static final long FIRST_COMM_ID = 0x6000_0000L;
    private static final long FIRST_TID = 0x2000;
    private static final int FLOOD_QPNS = 0x80_0000;

    private ReqFloodPeer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length != 5)
        {
            System.err.println("usage: ReqFloodPeer DEVICE OWN_ADDRESS LISTENER PORT COUNT");
            System.exit(2);
        }
        final String device = args[0];
        final InetAddress own = InetAddress.getByName(args[1]);
        final InetAddress listener = InetAddress.getByName(args[2]);
        final int port = Integer.parseInt(args[3]);
        final int count = Integer.parseInt(args[4]);
        final int gidIndex = ListenBacklogInGuest.ipv4RoceV2GidIndex(device);
        final Gid ownGid = ListenBacklogInGuest.gid(device, gidIndex);
        final Gid listenerGid = Gid.parse("::ffff:" + listener.getHostAddress());
        final Map<String, Integer> received = new TreeMap<>();
        try (UmadPort raw = UmadPort.open(device, DEVICE_PORT))
        {
            final UmadAgent agent = raw.register(AgentRegistration.communicationManagement());
            final MadAddress to = MadAddress.gsi(listenerGid, gidIndex, 0);
            final UnsafeBuffer req = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            final ConnectRequest request = ListenBacklogInGuest.request(req, ownGid, listenerGid,
                IpCmPrivateDataHeader.privateData(own, listener, 40000, new byte[0]), port);
            final MadHeader header = new MadHeader().wrap(req, 0);
            final UnsafeBuffer in = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            final long start = System.nanoTime();
            for (int i = 0; i < count; i++)
            {
                header.transactionId(FIRST_TID + i);
                request.localCommId(FIRST_COMM_ID + i).localQpn(FLOOD_QPNS + i);
                raw.send(agent, to, req, 0, MadHeader.MAD_SIZE);
                if ((i + 1) % BATCH == 0)
                {
                    drain(raw, in, received);
                    Thread.sleep(PAUSE_MILLIS);
                }
            }
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            final long lingerEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(LINGER_SECONDS);
            try (PollSet wait = new PollSet())
            {
                wait.add(raw.fd(), (fd, revents) -> 1);
                for (long left; (left = lingerEnd - System.nanoTime()) > 0; )
                {
                    drain(raw, in, received);
                    wait.await(left, () -> false);
                }
            }
            System.out.println("flood sent=" + count);
            System.out.println("flood millis=" + millis);
            if (received.isEmpty())
            {
                System.out.println("flood received none=0");
            }
            received.forEach((attribute, n) -> System.out.println("flood received " + attribute + "=" + n));
        }
    }

    private static void drain(final UmadPort raw, final UnsafeBuffer in, final Map<String, Integer> received)
    {
        for (int length; (length = raw.receive(in, 0)) != UmadPort.NOTHING; )
        {
            if (raw.received().sendTimedOut())
            {
                continue;
            }
            final int attribute = new MadHeader().wrap(in, 0, length).attributeId();
            final CmAttribute known = CmAttribute.fromId(attribute);
            received.merge(known == null ? "0x" + Integer.toHexString(attribute) : known.name(), 1, Integer::sum);
        }
    }
}

package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.rdmacm.verbs.IbvConstants.GRH_LENGTH;
import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): one UD datagram from a QP on
 * {@code rxe10} to a QP on {@code rxe1}, over the veth between their netdevs, addressed to
 * {@code rxe1}'s RoCE v2 GID of its IPv4 address. The exchange happens once; each test checks one
 * thing it left: the payload, the completions, the GRH area, the completion event, the veth's counters.
 * Two more datagrams follow, each in its own test: one with a wrong Q_Key, one to the sender's own GID.
 * <p>
 * For RoCE v2 over IPv4 the 40 bytes in front of a UD payload are not a GRH: rxe (like every RoCE
 * v2 device) leaves the first 20 zero and puts the received IPv4 header in the last 20.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class UdTrafficInGuest
{
    private static final long QKEY = 0x1111_1111L;
    private static final int PAYLOAD = 200;
    private static final long RECEIVE_WR_ID = 0x5151;
    private static final long SEND_WR_ID = 0x5e5e;
    /** Where in the sender's region the looped-back datagram lands, clear of the payload at 0. */
    private static final int LOOPBACK_OFFSET = 1024;
    private static final int IPV4_HEADER_LENGTH = 20;
    private static final int UDP_HEADER_LENGTH = 8;
    /** RoCE v2's UDP destination port (IANA). */
    private static final int ROCE_V2_PORT = 4791;

    private static VerbsContext sender;
    private static VerbsContext receiver;
    private static UdQueuePair senderQp;
    private static UdQueuePair receiverQp;
    private static CompletionQueue receiveCq;
    private static CompletionQueue sendCq;
    private static ProtectionDomain senderPd;
    private static MemoryRegion senderRegion;
    private static MemoryRegion receiverRegion;
    private static AddressHandle toReceiver;
    private static CompletionQueue eventCq;
    private static byte[] sentPayload;
    private static byte[] receivedBuffer;
    private static Completion receive;
    private static Completion send;
    private static int sgidIndex;
    private static long receiverPacketsBefore;
    private static long receiverPacketsAfter;

    @BeforeAll
    static void sendOneDatagramFromRxe0ToRxe1()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        final GuestNetdev receiverNetdev = new GuestNetdev(RECEIVER_NETDEV);
        sgidIndex = new SysfsPort(SENDER, PORT).gidIndex(new GuestNetdev(SENDER_NETDEV).ipv4Gid().toLongForm(), GidType.ROCE_V2.text());

        receiver = Verbs.open(RECEIVER);
        final ProtectionDomain receiverPd = receiver.allocateProtectionDomain();
        final CompletionChannel channel = receiver.createCompletionChannel();
        receiveCq = receiver.createCompletionQueue(16, channel);
        receiverQp = receiverPd.createUdQueuePair(receiveCq, receiveCq, QueuePairCapabilities.forMads()).activate(PORT, 0, QKEY);
        receiverRegion = receiverPd.allocateMemoryRegion(4096, IbvConstants.IBV_ACCESS_LOCAL_WRITE);

        sender = Verbs.open(SENDER);
        senderPd = sender.allocateProtectionDomain();
        sendCq = sender.createCompletionQueue(16, null);
        senderQp = senderPd.createUdQueuePair(sendCq, sendCq, QueuePairCapabilities.forMads()).activate(PORT, 0, QKEY);
        senderRegion = senderPd.allocateMemoryRegion(4096, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        toReceiver = senderPd.createAddressHandle(
            AddressVector.global(PORT, 0, 0, receiverNetdev.ipv4Gid(), sgidIndex, 64));
        sentPayload = new byte[PAYLOAD];
        for (int i = 0; i < PAYLOAD; i++)
        {
            sentPayload[i] = (byte)(i * 7 + 3);
        }
        senderRegion.memory().asSlice(0, PAYLOAD).copyFrom(MemorySegment.ofArray(sentPayload));
        // every byte the receive leaves unwritten stays 0xff, so the zeros the GRH area holds are rxe's
        receiverRegion.memory().fill((byte)0xff);

        receiverQp.postReceive(RECEIVE_WR_ID, receiverRegion, 0, GRH_LENGTH + PAYLOAD);
        receiveCq.requestNotification(false);
        receiverPacketsBefore = receiverNetdev.counter("rx_packets");
        senderQp.postSend(SEND_WR_ID, senderRegion, 0, PAYLOAD, toReceiver, receiverQp.qpNumber(), QKEY, true);

        send = Completion.awaitOne(sendCq);
        eventCq = Completion.awaitEvent(channel);
        receive = Completion.awaitOne(receiveCq);
        receiverPacketsAfter = receiverNetdev.counter("rx_packets");
        receivedBuffer = receiverRegion.memory().asSlice(0, GRH_LENGTH + PAYLOAD).toArray(JAVA_BYTE);
    }

    @AfterAll
    static void closeTheDevices()
    {
        if (sender != null)
        {
            sender.close();
        }
        if (receiver != null)
        {
            receiver.close();
        }
    }

    @Test
    void shouldDeliverThePayloadAfterTheGrhArea()
    {
        assertArrayEquals(sentPayload, Arrays.copyOfRange(receivedBuffer, GRH_LENGTH, GRH_LENGTH + PAYLOAD));
    }

    @Test
    void shouldCompleteTheSendSuccessfully()
    {
        assertEquals(IbvConstants.IBV_WC_SUCCESS, send.status(), send.toString());
        assertEquals(IbvConstants.IBV_WC_SEND, send.opcode(), send.toString());
        assertEquals(SEND_WR_ID, send.wrId(), send.toString());
        assertEquals(senderQp.qpNumber(), send.qpNumber(), send.toString());
    }

    @Test
    void shouldCompleteTheReceiveWithTheGrhAreaAndPayloadLength()
    {
        assertEquals(IbvConstants.IBV_WC_SUCCESS, receive.status(), receive.toString());
        assertEquals(IbvConstants.IBV_WC_RECV, receive.opcode(), receive.toString());
        assertEquals(RECEIVE_WR_ID, receive.wrId(), receive.toString());
        assertEquals(GRH_LENGTH + PAYLOAD, receive.byteLength(), receive.toString());
    }

    @Test
    void shouldCompleteTheReceiveOnTheReceivingQpFromTheSendingQpTheKernelLists()
    {
        final long listedSender = RdmaResources.number(RdmaResources.ourOnly("qp", SENDER), "lqpn");
        final long listedReceiver = RdmaResources.number(RdmaResources.ourOnly("qp", RECEIVER), "lqpn");

        assertEquals(listedSender, receive.sourceQp(), receive.toString());
        assertEquals(listedReceiver, receive.qpNumber(), receive.toString());
    }

    @Test
    void shouldFlagTheReceiveAsCarryingAGrh()
    {
        assertTrue((receive.flags() & IbvConstants.IBV_WC_GRH) != 0, receive.toString());
    }

    @Test
    void shouldReportThePkeyIndexOfTheDefaultPkey()
    {
        assertEquals(new SysfsPort(RECEIVER, PORT).pkeys().indexOf("0xffff"), receive.pkeyIndex(), receive.toString());
    }

    @Test
    void shouldZeroTheFirstTwentyBytesOfTheGrhAreaForIpv4()
    {
        assertArrayEquals(new byte[GRH_LENGTH - IPV4_HEADER_LENGTH], Arrays.copyOfRange(receivedBuffer, 0, GRH_LENGTH - IPV4_HEADER_LENGTH));
    }

    @Test
    void shouldPutTheReceivedIpv4HeaderInTheLastTwentyBytesOfTheGrhArea()
    {
        final ByteBuffer ip = ipv4Header();
        final int versionAndLength = Byte.toUnsignedInt(ip.get(0));

        assertEquals(0x45, versionAndLength, "version 4, 5 words, no options");
        assertEquals(17, Byte.toUnsignedInt(ip.get(9)), "protocol UDP");
        assertEquals(IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + 12 + 8 + PAYLOAD + 4, Short.toUnsignedInt(ip.getShort(2)),
            "total length: IPv4, UDP, BTH (12), DETH (8), payload, ICRC (4)");
        assertEquals(64, Byte.toUnsignedInt(ip.get(8)), "TTL: the AH's hop limit");
    }

    @Test
    void shouldPutAnIpv4HeaderWithAValidChecksumThere()
    {
        // RFC 791: the one's complement sum of all ten 16-bit words, checksum included, is all ones;
        // libibverbs' ibv_init_ah_from_wc tells an IPv4 header from a GRH this way
        final ByteBuffer ip = ipv4Header();
        int sum = 0;
        for (int i = 0; i < IPV4_HEADER_LENGTH; i += 2)
        {
            sum += Short.toUnsignedInt(ip.getShort(i));
        }
        sum = (sum & 0xffff) + (sum >>> 16);

        assertEquals(0xffff, (sum & 0xffff) + (sum >>> 16));
    }

    @Test
    void shouldCarryTheSendersAddressesInTheIpv4Header() throws Exception
    {
        final ByteBuffer ip = ipv4Header();
        final byte[] source = new byte[4];
        final byte[] destination = new byte[4];
        ip.get(12, source).get(16, destination);

        assertEquals(new GuestNetdev(SENDER_NETDEV).ipv4Address(), InetAddress.getByAddress(source));
        assertEquals(new GuestNetdev(RECEIVER_NETDEV).ipv4Address(), InetAddress.getByAddress(destination));
    }

    @Test
    void shouldNameTheSendersRoceV2GidAsTheSource()
    {
        final Gid source = Gid.ipv4Mapped(ipv4Header().getInt(12));

        assertEquals(new SysfsPort(SENDER, PORT).file("gids/" + sgidIndex), source.toLongForm());
        assertEquals(GidType.ROCE_V2.text(), new SysfsPort(SENDER, PORT).file("gid_attrs/types/" + sgidIndex));
    }

    @Test
    void shouldRaiseACompletionEventForTheArmedReceiveQueue()
    {
        assertSame(receiveCq, eventCq);
    }

    @Test
    void shouldCrossTheVethToTheReceiversNetdev()
    {
        assertTrue(receiverPacketsAfter > receiverPacketsBefore, RECEIVER_NETDEV + " rx_packets " + receiverPacketsBefore + " -> "
            + receiverPacketsAfter);
    }

    @Test
    void shouldDropADatagramWithAnotherQkeyAndCountTheViolation()
    {
        final long before = receiver.queryPort(PORT).qkeyViolationCounter();
        receiverQp.postReceive(RECEIVE_WR_ID + 1, receiverRegion, 0, GRH_LENGTH + PAYLOAD);

        senderQp.postSend(SEND_WR_ID + 1, senderRegion, 0, PAYLOAD, toReceiver, receiverQp.qpNumber(), QKEY + 1, true);

        assertEquals(IbvConstants.IBV_WC_SUCCESS, Completion.awaitOne(sendCq).status(), "a UD send completes whether or not it lands");
        final long after = awaitQkeyViolationsAbove(before);
        assertEquals(IbvDevinfo.number(IbvDevinfo.run().device(RECEIVER).ports().get(PORT - 1).field("qkey_viol_cntr")), after);
        try (WorkCompletions none = new WorkCompletions(1))
        {
            assertEquals(0, receiveCq.poll(none), "the receive stays posted");
        }
    }

    @Test
    void shouldLoopADatagramToTheSendersOwnGidBackToTheSendingQp()
    {
        // the AH resolves a GID of rxe0's own netdev to e0's own MAC, and rxe hands a packet for its
        // own MAC straight to its own receive path
        final GuestNetdev own = new GuestNetdev(SENDER_NETDEV);
        try (AddressHandle toSelf = senderPd.createAddressHandle(AddressVector.global(PORT, 0, 0, own.ipv4Gid(), sgidIndex, 64)))
        {
            senderQp.postReceive(RECEIVE_WR_ID + 2, senderRegion, LOOPBACK_OFFSET, GRH_LENGTH + PAYLOAD);

            senderQp.postSend(SEND_WR_ID + 2, senderRegion, 0, PAYLOAD, toSelf, senderQp.qpNumber(), QKEY, true);

            final Completion looped = Completion.awaitAll(sendCq, 2).stream().filter(c -> c.opcode() == IbvConstants.IBV_WC_RECV)
                .findFirst().orElseThrow(() -> new AssertionError("no receive completion on " + senderQp));
            assertEquals(IbvConstants.IBV_WC_SUCCESS, looped.status(), looped.toString());
            assertEquals(senderQp.qpNumber(), looped.sourceQp(), looped.toString());
            assertEquals(GRH_LENGTH + PAYLOAD, looped.byteLength(), looped.toString());
            assertArrayEquals(sentPayload, senderRegion.memory().asSlice(LOOPBACK_OFFSET + GRH_LENGTH, PAYLOAD).toArray(JAVA_BYTE));
        }
    }

    private static long awaitQkeyViolationsAbove(final long before)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - deadline < 0)
        {
            final long now = receiver.queryPort(PORT).qkeyViolationCounter();
            if (now > before)
            {
                return now;
            }
            LockSupport.parkNanos(Completion.POLL_PAUSE_NANOS);
        }
        throw new AssertionError(RECEIVER + " counted no Q_Key violation within 10 s (still " + before + ")");
    }

    private static ByteBuffer ipv4Header()
    {
        return ByteBuffer.wrap(receivedBuffer, GRH_LENGTH - IPV4_HEADER_LENGTH, IPV4_HEADER_LENGTH).slice();
    }
}

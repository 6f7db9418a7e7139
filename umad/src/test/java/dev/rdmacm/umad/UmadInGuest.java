package dev.rdmacm.umad;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.loop.PollSet;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the lower-layers guest (the conformance module's {@code SoftRoceGuestsTest}: no
 * ib_cm; verbs' {@code SoftRoceGuest} pair, {@code rxe10} on {@code v0} and {@code rxe11} on
 * {@code v1}, with ib_umad loaded). The peers are the kernel's MAD layer on both devices, sysfs for
 * every GID, P_Key and LID expected, and libibumad for the device lookup. Each test opens and closes
 * its own ports.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class UmadInGuest
{
    private static final String SENDER = "rxe10";
    private static final String RECEIVER = "rxe11";
    private static final int PORT = 1;
    /** A bound on each wait, so that a lost MAD fails the test instead of hanging it; never asserted on. */
    private static final long WAIT_BOUND_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long TID = 0x0000_0000_1234_5678L;
    /** libibumad's oracle of {@link UmadDevice#find}, in the guest's share ({@link #compileProbe}). */
    private static final String PROBE = "umad-port-path";

    private static Gid senderGid;
    private static int senderGidIndex;
    private static Gid receiverGid;
    private static int receiverGidIndex;

    /**
     * Compiles libibumad's oracle of the device lookup into {@code directory} (the guest's share) on the host, while the
     * guest boots: gcc under TCG took 17 s of this class's 23.
     */
    public static Path compileProbe(final Path directory)
    {
        Peers.requireFile("/usr/include/infiniband/umad.h", "libibumad-dev");
        return CProgram.compile(UmadInGuest.class, "umad_port_path.c", directory, PROBE, "-O0", "-Wall", "-libumad");
    }

    @BeforeAll
    static void findTheRoceV2GidsOfTheIpv4Addresses()
    {
        Peers.require(Files.exists(Path.of("/sys/class/infiniband", SENDER)), "no " + SENDER + " in this guest");
        senderGidIndex = ipv4RoceV2GidIndex(SENDER);
        senderGid = gid(SENDER, senderGidIndex);
        receiverGidIndex = ipv4RoceV2GidIndex(RECEIVER);
        receiverGid = gid(RECEIVER, receiverGidIndex);
    }

    @Test
    void shouldFindTheDeviceThatLibibumadOpens()
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final Path probe = Path.of(share, PROBE);
        Peers.require(Files.isExecutable(probe), probe + ": compiled into the share while the guest boots (compileProbe)");
        final String libibumad = HostCommand.run(Duration.ofSeconds(60), null, List.of(probe.toString(), RECEIVER,
            Integer.toString(PORT))).orFail("umad_port_path").output();

        final UmadDevice device = UmadDevice.find(RECEIVER, PORT);
        assertEquals(libibumad, device.devicePath() + "\n");
        assertTrue(device.isEthernet(), device.toString());
    }

    @Test
    void shouldDeliverACmRequestWithTheAddressTheKernelFilledIn() throws IOException
    {
        final UnsafeBuffer sent = connectRequest(TID);
        final UnsafeBuffer received = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        try (UmadPort sender = UmadPort.open(SENDER, PORT); UmadPort receiver = UmadPort.open(RECEIVER, PORT))
        {
            final UmadAgent from = sender.register(AgentRegistration.communicationManagement());
            final UmadAgent to = receiver.register(AgentRegistration.communicationManagement());

            sender.send(from, MadAddress.gsi(receiverGid, senderGidIndex, 0), sent, 0, MadHeader.MAD_SIZE);
            final int length = awaitMad(receiver, received);

            final UserMadHeader header = receiver.received();
            assertEquals(MadHeader.MAD_SIZE, length, header.toString());
            assertEquals(to.id(), header.agentId());
            assertEquals(0, header.status());
            assertEquals(UserMadHeader.LENGTH + MadHeader.MAD_SIZE, header.length());
            assertEquals(Gsi.QPN, header.qpn());
            assertEquals(Integer.decode(sysfs(SENDER, "lid")), header.lid());
            assertEquals(pkeyIndex(RECEIVER, 0xffff), header.pkeyIndex());
            assertTrue(header.grhPresent(), header.toString());
            assertEquals(senderGid, header.gid());
            assertEquals(receiverGidIndex, header.gidIndex());
            // every byte as sent but the TID's upper half, which the kernel sets to the sending agent's
            assertArrayEquals(Arrays.copyOfRange(sent.byteArray(), 0, MadHeader.TRANSACTION_ID_OFFSET),
                Arrays.copyOfRange(received.byteArray(), 0, MadHeader.TRANSACTION_ID_OFFSET));
            assertArrayEquals(Arrays.copyOfRange(sent.byteArray(), MadHeader.TRANSACTION_ID_OFFSET + 4, MadHeader.MAD_SIZE),
                Arrays.copyOfRange(received.byteArray(), MadHeader.TRANSACTION_ID_OFFSET + 4, MadHeader.MAD_SIZE));
            final MadHeader mad = new MadHeader().wrap(received, 0, length);
            assertEquals(TID, mad.transactionId() & 0xffff_ffffL);
            final ConnectRequest request = new ConnectRequest().wrapMad(received, 0, length);
            assertEquals(0x1111, request.localCommId());
            assertEquals(0x0106_0000_0000_4242L, request.serviceId());
            assertEquals(0x123, request.localQpn());
            System.out.println("umad: received on " + RECEIVER + ": " + header);
        }
    }

    @Test
    void shouldReturnAnUnansweredSendWithStatusEtimedoutAfterEveryRetry() throws IOException
    {
        final int retries = 2;
        final UnsafeBuffer sent = connectRequest(TID + 1);
        final UnsafeBuffer returned = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        try (UmadPort sender = UmadPort.open(SENDER, PORT); UmadPort receiver = UmadPort.open(RECEIVER, PORT))
        {
            final UmadAgent from = sender.register(AgentRegistration.communicationManagement());
            receiver.register(AgentRegistration.communicationManagement());

            sender.send(from, MadAddress.gsi(receiverGid, senderGidIndex, 0), sent, 0, MadHeader.MAD_SIZE, Duration.ofMillis(200),
                retries);
            final int length = awaitMad(sender, returned);

            final UserMadHeader header = sender.received();
            assertEquals(Errno.ETIMEDOUT, header.status(), header.toString());
            assertTrue(header.sendTimedOut());
            assertEquals(from.id(), header.agentId());
            assertEquals(MadHeader.LENGTH, length);
            assertEquals(200, header.timeoutMs());
            assertEquals(retries, header.retries());
            assertEquals(receiverGid, header.gid());
            final long tid = new MadHeader().wrap(returned, 0, length).transactionId();
            assertEquals(TID + 1, tid & 0xffff_ffffL);
            assertNotEquals(0, tid >>> 32, "the kernel's agent TID in the upper half");
            int copies = 0;
            while (copies < retries + 1)
            {
                awaitMad(receiver, copy);
                assertEquals(tid, new MadHeader().wrap(copy, 0, MadHeader.MAD_SIZE).transactionId());
                copies++;
            }
            assertEquals(UmadPort.NOTHING, receiver.receive(copy, 0), "a copy beyond the retries: " + receiver.received());
        }
    }

    @Test
    void shouldRefuseASecondCmAgentOnTheSamePortPrecisely()
    {
        try (UmadPort first = UmadPort.open(SENDER, PORT); UmadPort second = UmadPort.open(SENDER, PORT))
        {
            first.register(AgentRegistration.communicationManagement());

            final AgentInUseException error = assertThrows(AgentInUseException.class,
                () -> second.register(AgentRegistration.communicationManagement()));
            assertEquals(Errno.EINVAL, error.errno());
            assertFalse(error.kernelCmLoaded());
            assertEquals("cannot register an agent for class 0x07 (ComMgt) version 2 methods [0x03] on /dev/infiniband/" +
                first.device().name() + " (rxe10 port 1): another agent on this port already holds one of these methods " +
                "for this class and version (the kernel gives each method of a class version to one agent per port, in " +
                "this process or another) (the kernel answered errno 22 EINVAL (Invalid argument))", error.getMessage());
            assertThrows(AgentInUseException.class, () -> first.register(AgentRegistration.communicationManagement()));
        }
    }

    @Test
    void shouldFreeTheClassWhenTheAgentCloses()
    {
        try (UmadPort first = UmadPort.open(SENDER, PORT); UmadPort second = UmadPort.open(SENDER, PORT))
        {
            final UmadAgent agent = first.register(AgentRegistration.communicationManagement());
            agent.close();

            assertEquals(AgentRegistration.communicationManagement(), second.register(AgentRegistration.communicationManagement())
                .registration());
            assertFalse(agent.isRegistered());
        }
    }

    @Test
    void shouldFreeTheClassWhenThePortCloses()
    {
        final UmadPort first = UmadPort.open(SENDER, PORT);
        final UmadAgent agent = first.register(AgentRegistration.communicationManagement());
        first.close();
        try (UmadPort second = UmadPort.open(SENDER, PORT))
        {
            assertFalse(agent.isRegistered());
            second.register(AgentRegistration.communicationManagement());
        }
    }

    @Test
    void shouldRefuseAMadWithoutGrhOnRoce()
    {
        try (UmadPort port = UmadPort.open(SENDER, PORT))
        {
            final UmadAgent agent = port.register(AgentRegistration.communicationManagement());
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> port.send(agent, MadAddress.gsi(1, 0, 0), connectRequest(TID), 0, MadHeader.MAD_SIZE));
            assertTrue(error.getMessage().endsWith("has no GRH, but rxe10 port 1 is RoCE (link layer Ethernet), which routes on " +
                "the GRH's GID only"), error.getMessage());
        }
    }

    @Test
    void shouldLeakNoDescriptor() throws IOException
    {
        final OpenDescriptors before = OpenDescriptors.now();
        for (int i = 0; i < 3; i++)
        {
            try (UmadPort first = UmadPort.open(SENDER, PORT); UmadPort second = UmadPort.open(SENDER, PORT))
            {
                final UmadAgent agent = first.register(AgentRegistration.communicationManagement());
                assertThrows(AgentInUseException.class, () -> second.register(AgentRegistration.communicationManagement()));
                first.send(agent, MadAddress.gsi(receiverGid, senderGidIndex, 0), connectRequest(TID + 2 + i), 0,
                    MadHeader.MAD_SIZE);
            }
            assertThrows(UmadException.class, () -> UmadPort.open(new UmadDevice("umad999", SENDER, PORT, "Ethernet")));
        }

        assertEquals(List.of(), OpenDescriptors.openedSince(before));
    }

    private static UnsafeBuffer connectRequest(final long tid)
    {
        final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        new ConnectRequest().encodeMad(mad, 0, new MadHeader(), tid)
            .localCommId(0x1111).serviceId(0x0106_0000_0000_4242L).localQpn(0x123).partitionKey(0xffff);
        return mad;
    }

    /** Waits on the port's fd as an event loop would and returns the next MAD's length. */
    private static int awaitMad(final UmadPort port, final UnsafeBuffer into) throws IOException
    {
        final long deadline = System.nanoTime() + WAIT_BOUND_NANOS;
        try (PollSet wait = new PollSet())
        {
            wait.add(port.fd(), (fd, revents) -> 1);
            while (true)
            {
                final int length = port.receive(into, 0);
                if (length != UmadPort.NOTHING)
                {
                    return length;
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    throw new AssertionError("no MAD on " + port + " within " + TimeUnit.NANOSECONDS.toSeconds(WAIT_BOUND_NANOS) + " s");
                }
                wait.await(left, () -> false);
            }
        }
    }

    private static int ipv4RoceV2GidIndex(final String device)
    {
        for (int index = 0; index < 16; index++)
        {
            final Gid gid = gid(device, index);
            if (gid.isIpv4Mapped() && sysfs(device, "gid_attrs/types/" + index).equals("RoCE v2"))
            {
                return index;
            }
        }
        throw new AssertionError(device + " has no RoCE v2 GID of an IPv4 address in its first 16 entries");
    }

    private static Gid gid(final String device, final int index)
    {
        return Gid.parse(sysfs(device, "gids/" + index));
    }

    private static int pkeyIndex(final String device, final int pkey)
    {
        for (int index = 0; index < 16; index++)
        {
            if (Integer.decode(sysfs(device, "pkeys/" + index)) == pkey)
            {
                return index;
            }
        }
        throw new AssertionError(device + " has no P_Key 0x" + Integer.toHexString(pkey));
    }

    private static String sysfs(final String device, final String file)
    {
        try
        {
            return Files.readString(Path.of("/sys/class/infiniband", device, "ports", Integer.toString(PORT), file)).strip();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}

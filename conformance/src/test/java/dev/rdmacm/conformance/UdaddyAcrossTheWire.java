package dev.rdmacm.conformance;

import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.rdmacm.conformance.RpingAcrossTheWire.background;
import static dev.rdmacm.conformance.RpingAcrossTheWire.collect;
import static dev.rdmacm.conformance.RpingAcrossTheWire.javaCommand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * UD ids over SIDR against librdmacm 44's {@code udaddy} over the kernel CM, both ways, with one JVM in
 * the userspace guest ({@link UdaddyPeer}): the kernel guest's {@code udaddy -s OUR_ADDR} resolves our
 * listener's UD QP with a SIDR_REQ, which our {@code rdma_accept} answers; then our client resolves the
 * kernel guest's {@code udaddy} server the same way. udaddy's exit status and lines are its verdict on
 * our SIDR_REQ and SIDR_REP and on our UD QP's datagrams (sent with immediate data, received after the
 * GRH area). The wire is captured in the userspace guest ({@code udaddy.pcap}) and every CM MAD of both
 * sides decoded by our codecs and by tshark (whose 4.0 dissector reads a SIDR MAD's header only).
 */
final class UdaddyAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    /** Generous, as they cost nothing when all goes well: a guest JVM starts in 10-15 s under TCG, more on a busy host. */
    private static final Duration JVM_START = Duration.ofSeconds(90);
    private static final Duration EXCHANGE = Duration.ofSeconds(75);
    /** udaddy's fixed port, in RDMA_PS_UDP, on both guests. */
    private static final int UDADDY_PORT = 7174;
    /** Fewer than udaddy's 10 default messages of 100 bytes each way: the guest part's time is short. */
    private static final int MESSAGES = 4;
    /** The file that lets our client start, once the kernel guest's udaddy server listens. */
    private static final String GO = "/run/udaddy-go";

    private UdaddyAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final List<DynamicTest> tests = new ArrayList<>();

        // at once: the kernel guest's udaddy server (on the wildcard of its passive rdma_getaddrinfo, so any id on
        // its port), and in ours our JVM, which listens, then resolves that server once GO exists, and the capture
        final Path wire = ours.sharedDirectory().resolve("udaddy.pcap");
        final GuestPair.Both<GuestResult> started = guests.inBoth(
            guest -> guest.run(JVM_START, "rm -f " + GO + "\n" + background(javaCommand(ours, "udaddy-peer", UdaddyPeer.class.getName(),
                ourAddress, kernelAddress, Integer.toString(MESSAGES), GO), "udaddy-peer") + "\n"
                // the JVM sends no MAD before GO, so dumpcap starts while it does
                + RpingAcrossTheWire.startCapture(ours.guestPathOf(wire), "udp port 4791", "udaddy") + "\n"
                + RpingAcrossTheWire.untilListeningIn("udaddy-peer")),
            guest -> guest.run(JOB, background("udaddy -C " + MESSAGES, "kernel-udaddy-s") + "\n"
                + "i=0; until rdma resource show cm_id | grep 'src-addr' | grep -q ':" + UDADDY_PORT + "'; do i=$((i+1)); "
                + "[ $i -gt 100 ] && exit 1; sleep 0.2; done"));
        final GuestResult peer = started.userspace();
        final GuestResult kernelServer = started.kernel();
        // then both directions at once: the kernel's udaddy client against our server, our client against its server
        final boolean ready = peer.succeeded() && kernelServer.succeeded();
        final GuestPair.Both<GuestResult> exchanged = guests.inBoth(
            guest -> ready ? guest.run(EXCHANGE, "touch " + GO + "\n" + collect("udaddy-peer", EXCHANGE.minusSeconds(10))) : peer,
            guest -> ready ? guest.run(JOB, "udaddy -s " + ourAddress + " -C " + MESSAGES) : kernelServer);
        final GuestResult served = exchanged.userspace();
        final GuestResult kernelClient = exchanged.kernel();
        final GuestPair.Both<GuestResult> ended = guests.inBoth(guest -> guest.run(JOB, RpingAcrossTheWire.stopCapture("udaddy")),
            guest -> guest.run(JOB, collect("kernel-udaddy-s", Duration.ofSeconds(10))));
        final GuestResult kernelServed = ended.kernel();

        final List<String> serverLines = List.of("udaddy: starting server", "receiving data transfers", "sending replies",
            "data transfers complete", "test complete", "return status 0");
        final List<String> clientLines = List.of("udaddy: starting client", "udaddy: connecting", "initiating data transfers",
            "receiving data transfers", "data transfers complete", "test complete", "return status 0");
        tests.add(dynamicTest("shouldServeTheKernelsUdaddyClientOverSidr()", () ->
        {
            assertEquals(0, peer.exitStatus(), peer.describe());
            assertEquals(0, kernelClient.exitStatus(), kernelClient.describe() + "\n" + served.describe());
            assertEquals(clientLines, kernelClient.stdout().lines().toList(), kernelClient.describe());
            assertEquals(serverLines, served.stdout().lines().limit(serverLines.size()).toList(), served.describe());
        }));
        tests.add(dynamicTest("shouldResolveAndExchangeWithTheKernelsUdaddyServerOverSidr()", () ->
        {
            assertEquals(0, kernelServer.exitStatus(), kernelServer.describe());
            assertEquals(0, served.exitStatus(), served.describe() + "\n" + kernelServed.describe());
            assertEquals(clientLines, served.stdout().lines().skip(serverLines.size()).toList(), served.describe());
            assertEquals(0, kernelServed.exitStatus(), kernelServed.describe());
            assertEquals(serverLines, kernelServed.stdout().lines().toList(), kernelServed.describe());
        }));
        tests.add(dynamicTest("shouldDecodeEverySidrMadOfBothSidesAsTsharkDoes()", () ->
        {
            final List<String> attributes = new ArrayList<>();
            assertEquals(List.of(), KernelCmMadsCaptured.mismatches(wire, attributes), attributes.toString());
            assertEquals(List.of("SIDR_REP", "SIDR_REP", "SIDR_REQ", "SIDR_REQ"), attributes.stream().sorted().toList());
        }));
        tests.add(dynamicTest("shouldSendTheSidrReqAndSidrRepTheKernelSends()", () ->
        {
            // the kernel's SIDR_REQ is the one whose IP CM header comes from its address; each SIDR_REP answers one
            final List<byte[]> mads = RoceMadFrames.read(wire).stream().map(RoceMadFrames.Mad::bytes)
                .filter(mad -> (mad[1] & 0xff) == 0x07).toList();
            final List<byte[]> requests = mads.stream().filter(mad -> attributeOf(mad) == CmAttribute.SIDR_REQ.id()).toList();
            final List<byte[]> replies = mads.stream().filter(mad -> attributeOf(mad) == CmAttribute.SIDR_REP.id()).toList();
            assertEquals(2, requests.size(), "SIDR_REQs on the wire");
            assertEquals(2, replies.size(), "SIDR_REPs on the wire");
            final byte[] kernelRequest = requests.stream().filter(mad -> headerOf(new SidrRequest().wrapMad(new UnsafeBuffer(mad), 0,
                mad.length)).sourceAddress().getHostAddress().equals(kernelAddress)).findFirst().orElseThrow();
            final byte[] ourRequest = requests.get(requests.get(0) == kernelRequest ? 1 : 0);
            final SidrRequest theirs = new SidrRequest().wrapMad(new UnsafeBuffer(kernelRequest), 0, kernelRequest.length);
            final SidrRequest mine = new SidrRequest().wrapMad(new UnsafeBuffer(ourRequest), 0, ourRequest.length);
            assertEquals(theirs.serviceId(), mine.serviceId(), "Service ID");
            assertEquals(theirs.partitionKey(), mine.partitionKey(), "P_Key");
            final byte[] theirData = theirs.privateData();
            final byte[] myData = mine.privateData();
            final IpCmPrivateDataHeader theirHeader = headerOf(theirs);
            final IpCmPrivateDataHeader myHeader = headerOf(mine);
            assertEquals(theirHeader.version(), myHeader.version(), "IP CM header version");
            assertEquals(theirHeader.ipVersion(), myHeader.ipVersion(), "IP CM header IP version");
            assertEquals(theirHeader.sourceAddress(), myHeader.destinationAddress(), "the kernel's source is our destination");
            assertEquals(theirHeader.destinationAddress(), myHeader.sourceAddress(), "our source is the kernel's destination");
            assertArrayEquals(Arrays.copyOfRange(theirData, IpCmPrivateDataHeader.LENGTH, theirData.length),
                Arrays.copyOfRange(myData, IpCmPrivateDataHeader.LENGTH, myData.length), "the private data after the header");
            final SidrReply first = new SidrReply().wrapMad(new UnsafeBuffer(replies.get(0)), 0, replies.get(0).length);
            final boolean oursFirst = first.requestId() == theirs.requestId();
            final byte[] myReplyMad = replies.get(oursFirst ? 0 : 1);
            final byte[] theirReplyMad = replies.get(oursFirst ? 1 : 0);
            final SidrReply myReply = new SidrReply().wrapMad(new UnsafeBuffer(myReplyMad), 0, myReplyMad.length);
            final SidrReply theirReply = new SidrReply().wrapMad(new UnsafeBuffer(theirReplyMad), 0, theirReplyMad.length);
            assertEquals(theirReply.status(), myReply.status(), "status");
            assertEquals(theirReply.qKey(), myReply.qKey(), "Q_Key");
            assertEquals(theirReply.serviceId(), myReply.serviceId(), "Service ID");
            assertEquals(theirReply.additionalInfoLength(), myReply.additionalInfoLength(), "additional information length");
            assertEquals(theirReply.vendorId(), myReply.vendorId(), "vendor ID");
            assertArrayEquals(theirReply.privateData(), myReply.privateData(), "private data");
            assertEquals(theirs.requestId(), myReply.requestId(), "our SIDR_REP answers the kernel's request");
            assertEquals(mine.requestId(), theirReply.requestId(), "the kernel's SIDR_REP answers ours");
        }));
        return tests;
    }

    private static int attributeOf(final byte[] mad)
    {
        return (mad[MadHeader.ATTRIBUTE_ID_OFFSET] & 0xff) << 8 | mad[MadHeader.ATTRIBUTE_ID_OFFSET + 1] & 0xff;
    }

    private static IpCmPrivateDataHeader headerOf(final SidrRequest request)
    {
        return new IpCmPrivateDataHeader().wrap(request);
    }
}

package dev.rdmacm.conformance;

import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.conformance.RpingAcrossTheWire.javaCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * What this project's CM can do as the active side on an ordinary host, one where the kernel's CM
 * ({@code ib_cm}, with {@code rdma_ucm}) is loaded: the userspace guest loads it for this case and
 * unloads it after, and the kernel guest's real {@code rping -s} listens. {@link PlainUdQpRequester}
 * first calls {@code rdma_connect} as {@code rdmacm rping -c} does (umad refuses the CM class, and the
 * error says why), then sends its engine's REQ from a plain UD QP with QP 1's Q_Key. The wire, captured
 * in the userspace guest ({@code beside-kernel-cm.pcap}), shows where the kernel CM's answers go: to QP
 * 1 of the requesting port, which the local {@code ib_cm} owns, and never to the QP the REQ came from.
 */
final class BesideKernelCmAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    /** A guest JVM's start under TCG on a busy machine, and the requester's window. */
    private static final Duration REQUESTER = Duration.ofSeconds(150);
    private static final int WINDOW_SECONDS = 8;
    private static final int PORT = 7190;
    private static final String KERNEL_LISTENER = "beside-rping-s";
    private static final Pattern UD_QP = Pattern.compile("^UD QP 0x([0-9a-f]+),", Pattern.MULTILINE);

    private BesideKernelCmAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final Path wire = ours.sharedDirectory().resolve("beside-kernel-cm.pcap");

        final GuestResult listener = kernel.run(JOB, CmtimeAcrossTheWire.started("rping -s -v -C 1 -a " + kernelAddress + " -p " + PORT,
            KERNEL_LISTENER) + "\n" + RpingAcrossTheWire.untilListening(kernelAddress, PORT));
        final GuestResult requester = listener.succeeded()
            ? ours.run(REQUESTER, "modprobe rdma_ucm || exit 97\n[ -e /sys/module/ib_cm ] || exit 96\n"
                + RpingAcrossTheWire.startCapture(ours.guestPathOf(wire), "udp port 4791", "beside") + "\n"
                + javaCommand(ours, "beside-kernel-cm", PlainUdQpRequester.class.getName(), ourAddress, kernelAddress,
                    Integer.toString(PORT), Integer.toString(WINDOW_SECONDS)) + "\nstatus=$?\n"
                + RpingAcrossTheWire.stopCapture("beside") + "\nexit $status")
            : listener;
        final GuestResult unloaded = ours.run(JOB, "modprobe -r rdma_ucm rdma_cm iw_cm ib_cm || exit 98\n[ ! -e /sys/module/ib_cm ]");
        // the kernel's rping -s ends once its REPs go unanswered; whatever it printed is its side of the story
        final GuestResult served = kernel.run(JOB, "pid=$(cat /run/" + KERNEL_LISTENER + ".pid)\n"
            + "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 60 ]; do sleep 0.3; i=$((i+1)); done\n"
            + "kill -0 $pid 2>/dev/null && { echo 'still running after 18 s: stopped' >&2; kill $pid; }\n"
            + "cat /run/" + KERNEL_LISTENER + ".out; cat /run/" + KERNEL_LISTENER + ".err >&2; true");
        System.out.println("beside the kernel CM, the requester:\n" + requester.describe() + "\nthe kernel's rping -s:\n" + served.describe());

        return List.of(
            dynamicTest("shouldRefuseRdmaConnectThroughUmadBesideTheKernelsCmAndSayWhy()", () ->
            {
                assertEquals(0, requester.exitStatus(), requester.describe());
                final String refusal = requester.stdout().lines().filter(line -> line.startsWith("rdma_connect through umad: "))
                    .findFirst().orElse("");
                assertTrue(refusal.contains("ib_cm"), requester.describe());
            }),
            dynamicTest("shouldSendTheKernelCmsAnswersToAPlainUdQpsReqToQp1AndNeverToThatQp()", () ->
            {
                assertEquals(0, requester.exitStatus(), requester.describe());
                final Matcher qp = UD_QP.matcher(requester.stdout());
                assertTrue(qp.find(), requester.describe());
                final int udQpn = Integer.parseInt(qp.group(1), 16);
                final List<RoceMadFrames.Mad> mads = RoceMadFrames.read(wire).stream().filter(mad -> (mad.bytes()[1] & 0xff) == 0x07)
                    .toList();
                final List<RoceMadFrames.Mad> requests = mads.stream().filter(mad -> mad.sourceQpn() == udQpn).toList();
                final List<RoceMadFrames.Mad> answers = mads.stream().filter(mad -> mad.source().equals(kernelAddress)).toList();
                assertFalse(requests.isEmpty(), "no REQ from UD QP " + udQpn + " on the wire: " + describe(mads));
                requests.forEach(mad -> assertEquals(CmAttribute.REQ.id(), attributeOf(mad), describe(mads)));
                requests.forEach(mad -> assertEquals(1, mad.destinationQpn(), describe(mads)));
                assertTrue(answers.stream().anyMatch(mad -> attributeOf(mad) == CmAttribute.REP.id()), describe(mads));
                answers.forEach(mad -> assertEquals(1, mad.destinationQpn(), "the kernel CM's answer went to QP "
                    + mad.destinationQpn() + ": " + describe(mads)));
                assertTrue(requester.stdout().contains(", received 0 on UD QP "), requester.describe());
            }),
            dynamicTest("shouldUnloadTheKernelsCmFromTheUserspaceGuestAfterwards()", () ->
                assertEquals(0, unloaded.exitStatus(), unloaded.describe())));
    }

    private static int attributeOf(final RoceMadFrames.Mad mad)
    {
        return (mad.bytes()[MadHeader.ATTRIBUTE_ID_OFFSET] & 0xff) << 8 | mad.bytes()[MadHeader.ATTRIBUTE_ID_OFFSET + 1] & 0xff;
    }

    private static String nameOf(final int attribute)
    {
        final CmAttribute known = CmAttribute.fromId(attribute);
        return known == null ? String.format("0x%04x", attribute) : known.wireName();
    }

    /** Every CM MAD of the capture: source, QPs, attribute. */
    private static String describe(final List<RoceMadFrames.Mad> mads)
    {
        final StringBuilder text = new StringBuilder();
        mads.forEach(mad -> text.append(String.format("%n  frame %d from %s QP %d to QP %d: %s", mad.frame(), mad.source(), mad.sourceQpn(),
            mad.destinationQpn(), nameOf(attributeOf(mad)))));
        return text.toString();
    }
}

package dev.rdmacm.conformance;

import dev.rdmacm.cli.AcmServerGuest;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.testing.Tshark;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The kernel CM's own MADs, captured on the wire: in the kernel guest, the real {@code rping} connects
 * from rxe8 to rxe7 ({@link AcmServerGuest}'s pair) once to a port with no listener and once to
 * {@code rping -s}, one ping, while {@code dumpcap} records RoCE v2 on {@code a1}. Every CM MAD of
 * both sides (REQ, REJ; REQ, REP, RTU, DREQ, DREP) is then decoded by this project's codecs and by
 * tshark, and the two must agree on every field. The capture stays in the run directory, with the
 * kernel's field values in {@code kernel-cm-mads.txt}: what ib_cm sends, for the Java CM to match.
 */
final class KernelCmMadsCaptured
{
    static final String PCAP = "kernel-cm.pcap";
    static final String FIELDS = "kernel-cm-mads.txt";
    private static final Duration LIMIT = Duration.ofSeconds(120);
    private static final int LISTENING_PORT = 7471;
    private static final int SILENT_PORT = 7472;

    private KernelCmMadsCaptured()
    {
    }

    static List<DynamicTest> checks(final KernelGuest guest) throws IOException
    {
        final Path pcap = guest.sharedDirectory().resolve(PCAP);
        final GuestResult capture = guest.run(LIMIT, script(guest.guestPathOf(pcap)));
        if (!capture.succeeded() || !Files.exists(pcap))
        {
            return List.of(dynamicTest("shouldCaptureTheKernelCmsMads()", () -> assertEquals(0, capture.exitStatus(),
                capture.describe())));
        }
        final List<RoceMadFrames.Mad> mads = RoceMadFrames.read(pcap).stream()
            .filter(mad -> (mad.bytes()[1] & 0xff) == 0x07).toList();
        final List<Map<String, String>> ours = mads.stream().map(mad -> CmTsharkView.of(mad.bytes())).toList();
        final StringBuilder record = new StringBuilder(capture.stdout()).append('\n');
        for (int i = 0; i < mads.size(); i++)
        {
            record.append("frame ").append(mads.get(i).frame()).append(": ").append(ours.get(i)).append('\n');
        }
        Files.writeString(guest.sharedDirectory().resolve(FIELDS), record);
        final List<String> attributes = ours.stream().map(view -> CmAttribute.fromId(
            Integer.decode(view.get("infiniband.mad.attributeid"))).wireName()).toList();
        return List.of(
            dynamicTest("shouldCaptureTheKernelCmsRejectionAndWholeConnection()", () ->
            {
                assertTrue(capture.stdout().contains("client to the silent port failed"), capture.stdout());
                assertTrue(capture.stdout().contains("client exited 0") && capture.stdout().contains("server exited 0"),
                    capture.stdout());
                assertEquals(Set.of("REQ", "REJ", "REP", "RTU", "DREQ", "DREP"), Set.copyOf(attributes), attributes.toString());
            }),
            dynamicTest("shouldDecodeEveryKernelCmMadAsTsharkDoes()", () ->
                assertEquals(List.of(), mismatches(pcap, new ArrayList<>()), mads.size() + " CM MADs")),
            dynamicTest("shouldSeeTheKernelRejectANoListenerRequestAsAnInvalidServiceId()", () ->
            {
                final List<String> reasons = ours.stream().filter(view -> view.containsKey("infiniband.cm.rej.reason"))
                    .map(view -> view.get("infiniband.cm.rej.reason")).toList();
                // cm.c's cm_req_handler: no listener matches the Service ID -> IB_CM_REJ_INVALID_SERVICE_ID (8)
                assertEquals(List.of("0x0008"), reasons);
            }));
    }

    /**
     * Every field where this project's CM decoders and tshark read a CM MAD of {@code pcap} (RoCE v2
     * frames) differently; the MADs' attribute names, in order, are added to {@code attributes}.
     */
    static List<String> mismatches(final Path pcap, final List<String> attributes) throws IOException
    {
        final List<RoceMadFrames.Mad> mads = RoceMadFrames.read(pcap).stream()
            .filter(mad -> (mad.bytes()[1] & 0xff) == 0x07).toList();
        final List<Map<String, String>> ours = mads.stream().map(mad -> CmTsharkView.of(mad.bytes())).toList();
        final Set<String> fields = new LinkedHashSet<>();
        ours.forEach(view -> fields.addAll(view.keySet()));
        final Map<Integer, Map<String, List<String>>> tshark = byFrame(pcap, fields);
        final List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < mads.size(); i++)
        {
            final Map<String, List<String>> theirs = tshark.getOrDefault(mads.get(i).frame(), Map.of());
            final int frame = mads.get(i).frame();
            attributes.add(CmAttribute.fromId(Integer.decode(ours.get(i).get("infiniband.mad.attributeid"))).wireName());
            ours.get(i).forEach((field, value) ->
            {
                if (!List.of(value).equals(theirs.get(field)))
                {
                    mismatches.add("frame " + frame + " " + field + ": ours " + value + ", tshark " + theirs.get(field));
                }
            });
        }
        return mismatches;
    }

    /** tshark's fields, keyed by frame number (tshark's {@code frame.number}, from 1 like ours). */
    private static Map<Integer, Map<String, List<String>>> byFrame(final Path pcap, final Set<String> fields)
    {
        final List<String> asked = new ArrayList<>(List.of("frame.number"));
        asked.addAll(fields);
        final Map<Integer, Map<String, List<String>>> frames = new java.util.HashMap<>();
        for (final Map<String, List<String>> packet : Tshark.decode(pcap, asked.toArray(String[]::new)))
        {
            frames.put(Integer.parseInt(packet.get("frame.number").get(0)), packet);
        }
        return frames;
    }

    /** The capture: a rejected connect, then one ping through a real connection, then dumpcap stopped. */
    private static String script(final String pcap)
    {
        final String server = AcmServerGuest.SERVER_IPV4;
        final String client = AcmServerGuest.CLIENT_IPV4;
        return String.join("\n",
            "rm -f " + pcap,
            "dumpcap -q -P -i " + AcmServerGuest.CLIENT_NETDEV + " -f 'udp port 4791' -w " + pcap + " 2>/run/dumpcap.err &",
            "capture=$!",
            "i=0; until [ -s " + pcap + " ]; do i=$((i+1)); [ $i -gt 150 ] && { cat /run/dumpcap.err >&2; kill $capture; exit 1; }; "
                + "sleep 0.2; done",
            "rping -c -a " + server + " -I " + client + " -p " + SILENT_PORT + " -C 1 > /run/rping-silent.out 2>&1",
            "[ $? -ne 0 ] && echo 'client to the silent port failed'",
            "rping -s -a " + server + " -p " + LISTENING_PORT + " -C 1 -v > /run/rping-s.out 2>&1 &",
            "listener=$!",
            "i=0; until rdma resource show cm_id | grep -q 'src-addr " + server + ":" + LISTENING_PORT + "'; do i=$((i+1)); "
                + "[ $i -gt 100 ] && { kill $listener; kill $capture; exit 1; }; sleep 0.2; done",
            "rping -c -a " + server + " -I " + client + " -p " + LISTENING_PORT + " -C 1 -v > /run/rping-c.out 2>&1",
            "echo \"client exited $?\"",
            "wait $listener; echo \"server exited $?\"",
            "sleep 1; kill -INT $capture; wait $capture",
            "cat /run/rping-silent.out /run/rping-c.out /run/rping-s.out");
    }
}

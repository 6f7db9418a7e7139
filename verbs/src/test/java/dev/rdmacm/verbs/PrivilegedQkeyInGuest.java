package dev.rdmacm.verbs;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest ({@link VerbsOnSoftRoceTest}) as root: the SA's and GSI's
 * privileged Q_Key 0x80010000 on a UD QP, which the kernel allows with CAP_NET_RAW, and refuses
 * with EPERM to a process without it (a child JVM started by {@code setpriv} with CAP_NET_RAW
 * dropped from its bounding and inheritable sets, so that even uid 0 cannot have it).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PrivilegedQkeyInGuest
{
    /** Bit 13 of the capability sets in {@code /proc/PID/status}. */
    private static final long CAP_NET_RAW = 1L << 13;

    private VerbsContext context;

    @BeforeEach
    void openTheDevice()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        Peers.requireRoot("setting a privileged Q_Key");
        context = Verbs.open(SENDER);
    }

    @AfterEach
    void closeTheDevice()
    {
        if (context != null)
        {
            context.close();
        }
    }

    @Test
    void shouldSetTheGsiQkeyWithCapNetRaw()
    {
        final CompletionQueue cq = context.createCompletionQueue(4, null);
        final UdQueuePair qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());

        qp.init(PORT, 0, Qkey.GSI_QKEY);

        assertEquals(new QueuePairAttributes(QpState.INIT, Qkey.GSI_QKEY, 0, PORT, qp.query().sqPsn()), qp.query());
    }

    @Test
    void shouldRefuseTheGsiQkeyWithoutCapNetRawNamingTheWaysToGetIt()
    {
        final List<String> output = probeWithoutCapNetRaw();

        assertEquals(0, effectiveCapabilities(output.get(0)) & CAP_NET_RAW, output.get(0));
        final String qp = output.get(1);
        assertTrue(qp.startsWith("qp="), output.toString());
        assertEquals(List.of("errno=EPERM",
            "message=ibv_modify_qp failed: errno 1 EPERM: UD QP " + qp.substring(3) + " on " + SENDER + " RESET -> INIT: the kernel "
                + "refused the privileged Q_Key 0x80010000 (bit 31 set): setting it needs CAP_NET_RAW, or the kernel's privileged-qkey "
                + "mode on for every user: `rdma system set privileged-qkey on` (Linux 6.7, or a kernel with its backport, and an rdma "
                + "tool newer than iproute2 6.1's, which does not know the setting)"),
            output.subList(2, output.size()));
    }

    /** Runs {@link PrivilegedQkeyProbe} in a JVM whose bounding and inheritable sets lack CAP_NET_RAW. */
    private static List<String> probeWithoutCapNetRaw()
    {
        Peers.requireCommand("setpriv", "util-linux");
        final List<String> command = new ArrayList<>(List.of("setpriv", "--bounding-set=-net_raw", "--inh-caps=-net_raw", "--",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            // a JVM start costs seconds under TCG: C1 only, the serial collector
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), PrivilegedQkeyProbe.class.getName(), SENDER, Integer.toString(PORT)));
        final HostCommand.Outcome probe = HostCommand.run(Duration.ofSeconds(60), null, command).orFail("the CAP_NET_RAW-less probe JVM");
        final List<String> lines = probe.output().lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertTrue(lines.size() >= 3 && lines.get(0).startsWith("CapEff: "), probe.output());
        return lines;
    }

    private static long effectiveCapabilities(final String line)
    {
        return Long.parseUnsignedLong(line.substring("CapEff: ".length()).strip(), 16);
    }
}

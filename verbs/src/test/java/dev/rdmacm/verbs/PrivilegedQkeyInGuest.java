package dev.rdmacm.verbs;

import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.libc.ProcessCapabilities;
import dev.rdmacm.libc.testing.WithoutCapability;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}) as root: the SA's and GSI's
 * privileged Q_Key 0x80010000 on a UD QP, which the kernel allows with CAP_NET_RAW, and refuses
 * with EPERM to a caller without it: a thread that dropped CAP_NET_RAW from its effective set
 * (capabilities are per thread, and the kernel's {@code capable()} asks the caller's), so no second
 * JVM has to start under TCG.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public class PrivilegedQkeyInGuest
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

        qp.init(PORT, 0, Gsi.QKEY);

        assertEquals(new QueuePairAttributes(QpState.INIT, Gsi.QKEY, 0, PORT, qp.query().sqPsn()), qp.query());
    }

    @Test
    void shouldRefuseTheGsiQkeyWithoutCapNetRawNamingTheWaysToGetIt() throws Exception
    {
        final List<String> output = WithoutCapability.call(ProcessCapabilities.CAP_NET_RAW, PrivilegedQkeyInGuest::tryTheGsiQkey);

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

    /**
     * On a thread without CAP_NET_RAW (credentials are per thread, and the kernel checks the caller's):
     * its effective capabilities, a UD QP's number, and what moving it to INIT with the GSI Q_Key did.
     */
    private static List<String> tryTheGsiQkey() throws Exception
    {
        final List<String> output = new ArrayList<>();
        output.add(ProcFile.read(Path.of("/proc/thread-self/status")).lines().filter(line -> line.startsWith("CapEff:"))
            .findFirst().orElse("CapEff: unknown").replace('\t', ' '));
        try (VerbsContext device = Verbs.open(SENDER))
        {
            final CompletionQueue cq = device.createCompletionQueue(4, null);
            final UdQueuePair qp = device.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());
            output.add("qp=" + qp.qpNumber());
            qp.init(PORT, 0, Gsi.QKEY);
            output.add("qkey=0x" + Long.toHexString(qp.query().qkey()));
        }
        catch (final VerbsException ex)
        {
            output.add("errno=" + ex.errnoName());
            output.add("message=" + ex.getMessage());
        }
        return output;
    }

    private static long effectiveCapabilities(final String line)
    {
        return Long.parseUnsignedLong(line.substring("CapEff: ".length()).strip(), 16);
    }
}

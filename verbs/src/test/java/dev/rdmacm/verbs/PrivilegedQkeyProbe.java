package dev.rdmacm.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link PrivilegedQkeyInGuest}, started without CAP_NET_RAW: prints its
 * effective capabilities (from {@code /proc/self/status}), then moves a UD QP on the device named
 * by the first argument to INIT with {@link Qkey#GSI_QKEY} and prints its number and what happened,
 * one line each.
 */
public final class PrivilegedQkeyProbe
{
    private PrivilegedQkeyProbe()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final String capabilities = Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(line -> line.startsWith("CapEff:")).findFirst().orElse("CapEff: unknown");
        System.out.println(capabilities.replace('\t', ' '));
        try (VerbsContext context = Verbs.open(args[0]))
        {
            final CompletionQueue cq = context.createCompletionQueue(4, null);
            final UdQueuePair qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());
            System.out.println("qp=" + qp.qpNumber());
            qp.init(Integer.parseInt(args[1]), 0, Qkey.GSI_QKEY);
            System.out.println("qkey=0x" + Long.toHexString(qp.query().qkey()));
        }
        catch (final VerbsException ex)
        {
            System.out.println("errno=" + ex.errnoName());
            System.out.println("message=" + ex.getMessage());
        }
    }
}

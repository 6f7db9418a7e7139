package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.kernel.KernelConnectionManagerInGuest.Resources;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.KernelCmId;
import dev.rdmacm.testing.RunningPeer;
import dev.rdmacm.testing.SoftRoceDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code rdmacm cmtime --cm kernel} against the real {@code cmtime} server, in the kernel guest ({@code ib_cm}
 * loaded), as a correctness case (issue 32's performance row is {@code KernelCmtimeRoundsBenchmark}'s): our client
 * sets up and tears down {@value #CONNECTIONS} connections through the kernel's CM, and then librdmacm's cmtime
 * client does the same against the same server. Both must end with status 0 and print the same table rows (the
 * steps, in order); {@code rdma resource} counts the same CM ids and QPs after as before. Our client runs in this JVM
 * ({@code Main}'s command line), as {@code KernelConnectionManagerInGuest}'s rping cases do.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class CmtimeThroughKernelCmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PORT = 7532;
    private static final int CONNECTIONS = 20;
    /** A row of cmtime's table, {@code %-13s: %11.2f...}: the step's name. */
    private static final Pattern ROW = Pattern.compile("^(\\S.{0,12}?)\\s*:\\s+\\d+\\.\\d\\d");

    @Test
    void shouldConnectAndTearDownAgainstTheRealCmtimeServerAsLibrdmacmsCmtimeDoes() throws Exception
    {
        final Resources before = Resources.settled();
        final String ours;
        final int status;
        final HostCommand.Outcome theirs;
        try (RunningPeer server = RunningPeer.start("cmtime", "-b", OWN_IPV4, "-p", Integer.toString(PORT)))
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), PORT);
            final ByteArrayOutputStream output = new ByteArrayOutputStream();
            status = RdmacmInThisJvm.run(output, "cmtime", "-s", OWN_IPV4, "-p", Integer.toString(PORT), "-c",
                Integer.toString(CONNECTIONS), "--cm", "kernel");
            ours = output.toString(StandardCharsets.UTF_8);
            theirs = HostCommand.run(WAIT, null, List.of("cmtime", "-s", OWN_IPV4, "-p", Integer.toString(PORT), "-c",
                Integer.toString(CONNECTIONS)));
            System.out.println("rdmacm cmtime --cm kernel against the real cmtime server:\n" + ours + "librdmacm's cmtime:\n" + theirs.output()
                + "the server printed:\n" + server);
        }
        assertEquals(0, theirs.exitStatus(), theirs.output());
        assertEquals(0, status, ours);
        final List<String> theirRows = rows(theirs.output());
        assertFalse(theirRows.isEmpty(), theirs.output());
        assertEquals(theirRows, rows(ours), "the table's steps, ours against librdmacm's cmtime:\n" + ours);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    private static List<String> rows(final String output)
    {
        return output.lines().map(ROW::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    }
}

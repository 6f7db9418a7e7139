package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@code rdma link delete} under a resolved id: the kernel CM (through librdmacm, {@code cm_oracle
 * removal}) and ours each hold an id resolved to the peer on rxe6, then the test removes rxe6 and both
 * ids must get DEVICE_REMOVAL. Ours learns it from the kernel's uevent, which the kernel sends once its
 * own CM has let go of the device (after the oracle acked and destroyed its id). Destructive: it runs
 * after the other kernel-CM classes.
 */
public class DeviceRemovalAgainstKernelCmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void shouldPostDeviceRemovalAsTheKernelCmDoes() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final Process oracle = new ProcessBuilder(Path.of(share, "cm_oracle").toString(), "removal",
            KernelCmGuest.GONE_PEER_IPV4, "2000").redirectErrorStream(true).start();
        try (BufferedReader oracleOut = new BufferedReader(new InputStreamReader(oracle.getInputStream(), StandardCharsets.UTF_8));
            RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddr(null, InetAddress.getByName(KernelCmGuest.GONE_PEER_IPV4), Duration.ofSeconds(2));
            final CmEvent resolved = channel.getEvent(WAIT);
            assertNotNull(resolved, "no ADDR_RESOLVED");
            resolved.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, resolved.type(), resolved.toString());
            final StringBuilder oracleLines = new StringBuilder();
            final CompletableFuture<Void> ready = CompletableFuture.runAsync(() -> readUntil(oracleOut, "removal ready=1", oracleLines));
            ready.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            HostCommand.run(WAIT, "rdma", "link", "delete", KernelCmGuest.GONE_DEVICE).orFail("rdma link delete");
            final CmEvent removal = channel.getEvent(WAIT);
            assertNotNull(removal, "no event after " + KernelCmGuest.GONE_DEVICE + " went away");
            removal.ack();
            final Map<String, String> ours = new LinkedHashMap<>();
            ours.put("next_event", "RDMA_CM_EVENT_" + removal.type().name());
            ours.put("next_status", Integer.toString(removal.status()));

            CompletableFuture.runAsync(() -> readUntil(oracleOut, null, oracleLines)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            final Map<String, String> theirs = KernelCmOracle.parse(oracleLines.toString()).get("removal");
            assertNotNull(theirs, "the oracle printed: " + oracleLines);
            final Map<String, String> expected = new LinkedHashMap<>();
            expected.put("next_event", theirs.get("next_event"));
            expected.put("next_status", theirs.get("next_status"));
            assertEquals(expected, ours, "the oracle printed: " + oracleLines);
            assertEquals(CmIdState.DEVICE_REMOVAL, id.state());
        }
        finally
        {
            oracle.destroyForcibly();
        }
    }

    /** Lines of the oracle up to and including {@code last} (to the end for null), into {@code into}. */
    private static void readUntil(final BufferedReader in, final String last, final StringBuilder into)
    {
        try
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                into.append(line).append('\n');
                if (line.equals(last))
                {
                    return;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}

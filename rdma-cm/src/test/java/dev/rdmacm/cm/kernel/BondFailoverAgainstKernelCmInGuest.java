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
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.ACTIVE_BOND;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ACTIVE_BOND_FIRST_SLAVE;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ACTIVE_BOND_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ACTIVE_BOND_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ACTIVE_BOND_SECOND_SLAVE;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.STILL_BOND;
import static dev.rdmacm.cm.kernel.KernelCmGuest.STILL_BOND_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.STILL_BOND_SECOND_SLAVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * ADDR_CHANGE on a bonding failover, ours against the kernel CM (through librdmacm, {@code cm_oracle
 * failover}). Each side holds five ids on one channel: {@code resolved} (resolved over the bond whose
 * MAC follows its active slave), {@code bound} (only bound to that bond's address), {@code still}
 * (resolved over the bond with fail_over_mac none), {@code marker} (resolved over k0, another device)
 * and {@code idle}. Then, twice, the test fails bonds over with {@code ip link set BOND type bond
 * active_slave SLAVE} (synchronous: the NETDEV_BONDING_FAILOVER notifiers have run when it returns):
 * <ol>
 *   <li>the MAC-keeping bond, then the MAC-changing bond: the kernel posts ADDR_CHANGE to
 *       {@code resolved} and {@code bound} only;</li>
 *   <li>the MAC-changing bond back to its first slave, whose MAC the ids stored (nothing), then over
 *       again (ADDR_CHANGE again, once).</li>
 * </ol>
 * The kernel side proves "no other event" with a marker id's ROUTE_RESOLVED, which comes through the
 * CM's ordered workqueue after every ADDR_CHANGE that the failover queued. Our side ends each round with
 * the MAC-changing failover: our watch reads the link events in order, so once its ADDR_CHANGEs arrived
 * the round's earlier failovers were decided; anything more must then already be in the channel, which
 * a short last read checks. Destructive for the bonds: it runs after the resolution matrix.
 */
public class BondFailoverAgainstKernelCmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The last read for an event the kernel did not post: only a wrong extra event could arrive in it. */
    private static final Duration LAST_READ = Duration.ofMillis(500);
    private static final List<String> NAMES = List.of("resolved", "bound", "still", "marker", "idle");

    @Test
    void shouldPostAddrChangeOnABondingFailoverAsTheKernelCmDoes() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final Process oracle = new ProcessBuilder(Path.of(share, "cm_oracle").toString(), "failover",
            ACTIVE_BOND_PEER_IPV4, ACTIVE_BOND_OWN_IPV4, STILL_BOND_PEER_IPV4, PEER_IPV4, "2000").redirectErrorStream(true).start();
        try (BufferedReader oracleOut = new BufferedReader(new InputStreamReader(oracle.getInputStream(), StandardCharsets.UTF_8));
            OutputStream oracleIn = oracle.getOutputStream();
            RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            final StringBuilder oracleLines = new StringBuilder();
            final List<RdmaCmId> ids = new ArrayList<>();
            try
            {
                for (int i = 0; i < NAMES.size(); i++)
                {
                    ids.add(cm.createId(channel));
                }
                resolve(channel, ids.get(0), ACTIVE_BOND_PEER_IPV4);
                ids.get(1).bindAddr(new InetSocketAddress(InetAddress.getByName(ACTIVE_BOND_OWN_IPV4), 0));
                resolve(channel, ids.get(2), STILL_BOND_PEER_IPV4);
                resolve(channel, ids.get(3), PEER_IPV4);
                read(oracleOut, "failover ready=1", oracleLines);

                final Map<String, String> theirs = new LinkedHashMap<>();
                final Map<String, String> ours = new LinkedHashMap<>();
                activeSlave(STILL_BOND, STILL_BOND_SECOND_SLAVE);
                activeSlave(ACTIVE_BOND, ACTIVE_BOND_SECOND_SLAVE);
                round(1, oracleIn, oracleOut, oracleLines, channel, ids, theirs, ours);
                activeSlave(ACTIVE_BOND, ACTIVE_BOND_FIRST_SLAVE);
                activeSlave(ACTIVE_BOND, ACTIVE_BOND_SECOND_SLAVE);
                round(2, oracleIn, oracleOut, oracleLines, channel, ids, theirs, ours);

                assertEquals(theirs, ours, "the oracle printed: " + oracleLines);
                // ADDR_CHANGE leaves the state alone, in the kernel (no state change in the work) and here
                assertEquals(CmIdState.ADDR_RESOLVED, ids.get(0).state());
                assertEquals(CmIdState.ADDR_BOUND, ids.get(1).state());
            }
            finally
            {
                ids.forEach(RdmaCmId::close);
            }
        }
        finally
        {
            oracle.destroyForcibly();
        }
    }

    /** One round: the oracle's answer for it into {@code theirs}, ours into {@code ours}, by {@code ROUND.NAME}. */
    private static void round(final int round, final OutputStream oracleIn, final BufferedReader oracleOut,
        final StringBuilder oracleLines, final EventChannel channel, final List<RdmaCmId> ids,
        final Map<String, String> theirs, final Map<String, String> ours) throws Exception
    {
        oracleIn.write("go\n".getBytes(StandardCharsets.US_ASCII));
        oracleIn.flush();
        final StringBuilder lines = new StringBuilder();
        read(oracleOut, "failover " + round + ".end=1", lines);
        oracleLines.append(lines);
        final Map<String, String> kernel = KernelCmOracle.parse(lines.toString()).get("failover");
        assertNotNull(kernel, "the oracle printed: " + oracleLines);
        int expected = 0;
        for (final String name : NAMES)
        {
            final String events = kernel.get(round + "." + name);
            assertNotNull(events, "the oracle printed no " + round + "." + name + ": " + oracleLines);
            theirs.put(round + "." + name, events);
            expected += events.equals("none") ? 0 : events.split(",").length;
        }

        final Map<RdmaCmId, StringBuilder> got = new LinkedHashMap<>();
        ids.forEach(id -> got.put(id, new StringBuilder()));
        for (int received = 0; ; received++)
        {
            final CmEvent event = channel.getEvent(received < expected ? WAIT : LAST_READ);
            if (event == null)
            {
                break;
            }
            event.ack();
            final StringBuilder into = got.get(event.id());
            into.append(into.isEmpty() ? "" : ",").append("RDMA_CM_EVENT_").append(event.type().name()).append(':')
                .append(event.status());
        }
        for (int i = 0; i < NAMES.size(); i++)
        {
            final String events = got.get(ids.get(i)).toString();
            ours.put(round + "." + NAMES.get(i), events.isEmpty() ? "none" : events);
        }
    }

    private static void resolve(final EventChannel channel, final RdmaCmId id, final String destination) throws Exception
    {
        id.resolveAddr(null, InetAddress.getByName(destination), Duration.ofSeconds(2));
        final CmEvent resolved = channel.getEvent(WAIT);
        assertNotNull(resolved, "no ADDR_RESOLVED for " + destination);
        resolved.ack();
        assertEquals(CmEventType.ADDR_RESOLVED, resolved.type(), resolved.toString());
    }

    /** {@code bond_option_active_slave_set}: bond_change_active_slave and its notifiers, before it returns. */
    private static void activeSlave(final String bond, final String slave)
    {
        HostCommand.run(WAIT, "ip", "link", "set", bond, "type", "bond", "active_slave", slave)
            .orFail("ip link set " + bond + " active_slave " + slave);
    }

    /** Lines of the oracle up to and including {@code last}, into {@code into}; bounded by {@link #WAIT}. */
    private static void read(final BufferedReader in, final String last, final StringBuilder into) throws Exception
    {
        CompletableFuture.runAsync(() ->
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
                throw new AssertionError("the oracle ended before '" + last + "': " + into);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
}

package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The ucma module's MIGRATE_ID against the real kernel CM of the kernel guest (rxe0 on k0): an id resolved on one
 * channel, its ADDR_RESOLVED taken there, is moved to a second channel (the command written on the second, naming
 * the first's descriptor, as librdmacm's {@code rdma_migrate_id}); the answer counts the one event the first had
 * handed out, the id's ROUTE_RESOLVED then comes on the second channel and never on the first, and the second
 * destroys it. The CM itself never sends MIGRATE_ID (docs/decisions.md): this is the binding, for an application
 * of the ucma module.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class UcmaMigrateIdInGuest
{
    private static final long UID = 0x0d0e_0a0dL;

    private static Ipv4Sockaddr ipv4(final String text, final int port)
    {
        final String[] bytes = text.split("\\.");
        return new Ipv4Sockaddr(Integer.parseInt(bytes[0]) << 24 | Integer.parseInt(bytes[1]) << 16 |
            Integer.parseInt(bytes[2]) << 8 | Integer.parseInt(bytes[3]), port);
    }

    /** The next event's type, uid and id. */
    private static List<Object> next(final UcmaChannel channel)
    {
        final EventResponse event = channel.getEvent(30, TimeUnit.SECONDS);
        assertNotNull(event, "no event within 30 s");
        assertEquals(0, event.status(), "status");
        return List.of(UcmaEventType.of(event.event()), event.uid(), event.id());
    }

    @Test
    void shouldMoveAnIdAndItsLaterEventsToTheChannelItIsMigratedTo()
    {
        try (UcmaChannel first = UcmaChannel.open(); UcmaChannel second = UcmaChannel.open())
        {
            final int id = first.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            first.bind(id, ipv4(OWN_IPV4, 20131));
            first.resolveAddr(id, null, ipv4(PEER_IPV4, 7471), 2000);
            assertEquals(List.of(UcmaEventType.ADDR_RESOLVED, UID, id), next(first));
            first.resolveRoute(id, 2000);

            assertEquals(1, second.migrateId(id, first), "MIGRATE_ID's events_reported: the ADDR_RESOLVED the first handed out");

            assertEquals(List.of(UcmaEventType.ROUTE_RESOLVED, UID, id), next(second));
            assertNull(first.getEvent(100, TimeUnit.MILLISECONDS), "an event of the migrated id on the channel it left");
            assertEquals(2, second.destroyId(id), "DESTROY_ID's events_reported, counted across both channels");
        }
    }
}

package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.Ipv6Text;

import java.time.Duration;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Our {@link RdmaCmId} on a {@link CmCase}, written as the oracle writes the real librdmacm's answer:
 * the same keys, the same text, so the two maps compare field by field.
 */
final class OurCm
{
    private OurCm()
    {
    }

    /** The address as inet_ntop writes it (RFC 5952), which is what the oracle prints. */
    private static String text(final InetAddress address)
    {
        return address instanceof Inet6Address ? Ipv6Text.format(address.getAddress()) : address.getHostAddress();
    }

    /** The address-resolution part of the oracle's output: events, errnos, device, port, addresses, GIDs, P_Key. */
    static Map<String, String> resolveAddress(final RdmaCm cm, final CmCase which) throws Exception
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            try
            {
                id.resolveAddr(which.source() == null ? null : InetAddress.getByName(which.source()),
                    InetAddress.getByName(which.destination()), Duration.ofMillis(which.timeoutMs()));
            }
            catch (final RdmaCmException ex)
            {
                fields.put("addr_errno", Integer.toString(ex.errno()));
                return fields;
            }
            final CmEvent event = channel.getEvent(Duration.ofMillis(which.timeoutMs() + 5_000L));
            if (event == null)
            {
                fields.put("addr_event", "NONE");
                return fields;
            }
            fields.put("addr_event", "RDMA_CM_EVENT_" + event.type().name());
            fields.put("addr_status", Integer.toString(event.status()));
            final AddressResolution resolution = event instanceof CmEvent.AddrResolved resolved ? resolved.resolution() : null;
            event.ack();
            if (resolution != null && event.status() == 0)
            {
                fields.put("device", resolution.binding().device());
                fields.put("port_num", Integer.toString(resolution.binding().port()));
                fields.put("src", text(resolution.source()));
                fields.put("dst", text(resolution.destination()));
                fields.put("sgid", resolution.sgid().toString());
                fields.put("dgid", resolution.dgid().toString());
                fields.put("addr_pkey", String.format("0x%04x", resolution.pkey().value()));
            }
        }
        return fields;
    }
}

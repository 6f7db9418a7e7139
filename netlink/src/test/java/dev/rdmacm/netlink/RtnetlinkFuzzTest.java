package dev.rdmacm.netlink;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the rtnetlink parsers: a datagram framed as
 * {@link NetlinkSocket} frames one, each message given to the decoder its type selects, as the conductor
 * and the resolver use them (route, link, neighbour, qdisc). The contract: a {@link Route}, {@link Link}
 * or {@link Neighbour} whose views work, or {@link MalformedMessageException}; nothing else. Seeds: the
 * kernel's replies to route, link, neighbour, address and qdisc dumps in a namespace with a veth pair, a
 * neighbour and a route through a gateway.
 */
class RtnetlinkFuzzTest
{
    private final Rtnetlink decoder = new Rtnetlink(null);
    private final NetlinkMessageHeader header = new NetlinkMessageHeader();

    @FuzzTest
    void shouldDecodeEachMessageOrThrowMalformed(final byte[] datagram)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        int offset = 0;
        while (offset + NetlinkMessageHeader.LENGTH <= datagram.length)
        {
            header.wrap(buffer, offset, datagram.length - offset);
            final int messageLength = (int)header.length();
            if (messageLength < NetlinkMessageHeader.LENGTH || messageLength > datagram.length - offset)
            {
                return;
            }
            try
            {
                decode(buffer, offset + messageLength);
            }
            catch (final MalformedMessageException expected)
            {
                assertNotNull(expected.getMessage());
            }
            offset += NetlinkMessageHeader.align(messageLength);
        }
    }

    private void decode(final UnsafeBuffer buffer, final int end)
    {
        switch (header.type())
        {
            case NetlinkMessageHeader.RTM_NEWROUTE ->
            {
                final Route route = decoder.decodeRoute(header, buffer, end);
                assertNotNull(route.destination());
                route.effectiveSource();
                route.isLocal();
                route.nextHop();
            }
            case NetlinkMessageHeader.RTM_NEWLINK, NetlinkMessageHeader.RTM_DELLINK ->
            {
                final Link link = decoder.decodeLink(header, buffer, end);
                assertNotNull(link.name());
                link.addressText();
                link.broadcastText();
                link.isVlan();
                link.isBondingFailover();
                link.isInfiniband();
            }
            case NetlinkMessageHeader.RTM_NEWNEIGH, NetlinkMessageHeader.RTM_DELNEIGH ->
            {
                final Neighbour neighbour = decoder.decodeNeighbour(header, buffer, end);
                neighbour.isValid();
                neighbour.isFailed();
                neighbour.linkLayerText();
                neighbour.stateText();
            }
            case NetlinkMessageHeader.RTM_NEWQDISC, NetlinkMessageHeader.RTM_DELQDISC ->
                decoder.decodeQdiscIfindex(header, buffer, end);
            default ->
            {
            }
        }
    }
}

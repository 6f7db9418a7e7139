package dev.rdmacm.netlink;

import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import org.agrona.DirectBuffer;

/** Receives each netlink message of a reply or an event datagram, in place, without copying. */
@FunctionalInterface
public interface NetlinkMessageHandler
{
    /**
     * @param header wraps the message's nlmsghdr; valid only during the call.
     * @param end    offset just past the message (its attributes end here).
     */
    void onMessage(NetlinkMessageHeader header, DirectBuffer buffer, int end);
}

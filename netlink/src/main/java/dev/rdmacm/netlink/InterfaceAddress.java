package dev.rdmacm.netlink;

import java.net.InetAddress;

/**
 * One address configured on an interface, as RTM_GETADDR reports it.
 *
 * @param ifindex      the interface that owns it.
 * @param address      IFA_LOCAL (IPv4) or IFA_ADDRESS (IPv6): the address itself.
 * @param prefixLength the prefix length.
 * @param scope        RT_SCOPE_* (0 global, 253 link, 254 host).
 */
public record InterfaceAddress(int ifindex, InetAddress address, int prefixLength, int scope)
{
}

/**
 * Netlink: the nlmsghdr and nlattr framing ({@code wire}), the RDMA netlink local service codecs
 * ({@code rdma}), the NETLINK_ROUTE client (routes, links, addresses, neighbours, qdiscs) and the
 * kernel's uevents.
 */
module dev.rdmacm.netlink
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.netlink;
    exports dev.rdmacm.netlink.rdma;
    exports dev.rdmacm.netlink.wire;
}

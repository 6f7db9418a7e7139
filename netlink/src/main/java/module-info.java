/** The NETLINK_ROUTE client (routes, links, addresses, neighbours, qdiscs) and the kernel's uevents. */
module dev.rdmacm.netlink
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.netlink;
}

/** An ibacm-compatible resolver service: the ibacm protocol on a unix socket and a TCP port. */
module dev.rdmacm.acm
{
    requires transitive dev.rdmacm.sa;
    requires dev.rdmacm.files;
    requires dev.rdmacm.libc;
    requires dev.rdmacm.netlink;

    exports dev.rdmacm.acm;
}

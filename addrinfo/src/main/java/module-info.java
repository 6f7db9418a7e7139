/**
 * {@code rdma_getaddrinfo}: hints, sockaddrs (AF_INET, AF_INET6, AF_IB), glibc's getaddrinfo, ibacm
 * and ServiceRecord lookups. Needs {@code --enable-native-access=dev.rdmacm.addrinfo}.
 */
module dev.rdmacm.addrinfo
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.addrinfo;
}

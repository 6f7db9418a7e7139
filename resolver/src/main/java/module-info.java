/**
 * Address and route resolution with librdmacm's and the kernel CM's semantics: {@code rdma_resolve_addr}
 * over rtnetlink (routes, neighbours, IPoIB and RoCE GIDs) or a hosts file, and {@code rdma_resolve_route}
 * as an SA PathRecord query on InfiniBand or a synthesized path on RoCE. It holds no id and runs no
 * thread: the rdma_cm conductor ({@code dev.rdmacm.cm}) asks it, on its own thread.
 */
module dev.rdmacm.resolver
{
    requires transitive dev.rdmacm.addrinfo;
    requires transitive dev.rdmacm.netlink;
    requires transitive dev.rdmacm.sa;
    requires transitive dev.rdmacm.files;

    exports dev.rdmacm.resolver;
    exports dev.rdmacm.resolver.spi;
    // the resolvers themselves, which only the conductor drives, on its thread
    exports dev.rdmacm.resolver.engine to dev.rdmacm.cm;
}

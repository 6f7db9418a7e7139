/**
 * The {@code rdma_cm} API (RdmaCm, EventChannel, RdmaCmId, CmEvent) and the conductor that owns every
 * id: it asks the resolver ({@code dev.rdmacm.resolver}) and drives the IB CM ({@code dev.rdmacm.ibcm}).
 */
module dev.rdmacm.cm
{
    requires transitive dev.rdmacm.addrinfo;
    requires transitive dev.rdmacm.sa;
    requires transitive dev.rdmacm.resolver;
    requires dev.rdmacm.ibcm;
    requires dev.rdmacm.files;
    requires dev.rdmacm.netlink;
    requires dev.rdmacm.umad;
    requires dev.rdmacm.ucma;

    exports dev.rdmacm.cm;
    exports dev.rdmacm.cm.diagnostics;
}

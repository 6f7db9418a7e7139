/** The {@code rdma_cm} API: RdmaCm, EventChannel, RdmaCmId, CmEvent; address and route resolution. */
module dev.rdmacm.cm
{
    requires transitive dev.rdmacm.addrinfo;
    requires transitive dev.rdmacm.sa;
    requires dev.rdmacm.ibcm;
    requires dev.rdmacm.files;
    requires dev.rdmacm.netlink;
    requires dev.rdmacm.umad;

    exports dev.rdmacm.cm;
}

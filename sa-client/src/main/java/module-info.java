/** SA queries (PathRecord, MultiPathRecord, ServiceRecord, MCMemberRecord) over the ibsim and verbs MAD transports. */
module dev.rdmacm.sa
{
    requires transitive dev.rdmacm.loop;
    requires transitive dev.rdmacm.verbs;
    requires dev.rdmacm.files;

    exports dev.rdmacm.sa;
    exports dev.rdmacm.sa.multicast;
    exports dev.rdmacm.sa.path;
    exports dev.rdmacm.sa.service;
    exports dev.rdmacm.sa.transport;
    exports dev.rdmacm.sa.transport.ibsim;
    exports dev.rdmacm.sa.transport.verbs;
}

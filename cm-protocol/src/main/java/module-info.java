/**
 * The wire formats and values of the RDMA CM world, with no I/O: MADs and RMPP, SA records, CM messages
 * and the IP CM header, path records, the ibacm protocol, UD framing for captures.
 */
module dev.rdmacm.protocol
{
    requires transitive org.agrona;

    exports dev.rdmacm.protocol;
    exports dev.rdmacm.protocol.acm;
    exports dev.rdmacm.protocol.capture;
    exports dev.rdmacm.protocol.cm;
    exports dev.rdmacm.protocol.mad;
    exports dev.rdmacm.protocol.path;
    exports dev.rdmacm.protocol.sa;
}

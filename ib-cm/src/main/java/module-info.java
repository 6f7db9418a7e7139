/** The IB CM protocol engine (ib_cm's states, timers and demultiplexing), with no I/O of its own. */
module dev.rdmacm.ibcm
{
    requires transitive dev.rdmacm.loop;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.ibcm to dev.rdmacm.cm;
}

/** The loop kit every conductor here is built on: waiting on descriptors, deadline timers, clocks. */
module dev.rdmacm.loop
{
    requires transitive dev.rdmacm.libc;
    requires transitive org.agrona;

    exports dev.rdmacm.loop;
}

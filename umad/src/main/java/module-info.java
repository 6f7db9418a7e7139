/** The umad MAD transport: {@code /dev/infiniband/umadN}, agent registration, send and receive. */
module dev.rdmacm.umad
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.umad to dev.rdmacm.cm;
}

/** The files the stack writes and reads: pcap captures of MADs, ibacm's hosts file. */
module dev.rdmacm.files
{
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.files.ibacm;
    exports dev.rdmacm.files.pcap;
}

/** The files the stack writes and reads: pcap captures of MADs, ibacm's hosts file, bounded text reads. */
module dev.rdmacm.files
{
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.files.ibacm;
    exports dev.rdmacm.files.pcap;
    exports dev.rdmacm.files.text;
}

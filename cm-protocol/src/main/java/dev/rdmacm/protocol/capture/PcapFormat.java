package dev.rdmacm.protocol.capture;

import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * The classic pcap file format (libpcap's {@code pcap_file_header} and {@code pcap_pkthdr} as stored),
 * all little-endian as this project writes it: the layout only, no I/O. The writers in the files
 * module ({@code dev.rdmacm.files.pcap}) put their records behind it; tests read captures of the wire
 * with it.
 * <pre>
 *  file:    pcap header (24) | record | record | ...
 *
 *  pcap header:  magic | version major (2) | version minor (4) | thiszone | sigfigs | snaplen | network
 *                 0      4                   6                   8          12        16        20
 *  pcap record:  ts_sec | ts_fraction | incl_len | orig_len
 *                 0        4             8          12
 * </pre>
 * The magic says the timestamps' unit: {@link #PCAP_MAGIC_MICROSECONDS} or {@link #PCAP_MAGIC_NANOSECONDS};
 * the network field the link type of every record.
 */
public final class PcapFormat
{
    public static final int PCAP_MAGIC_OFFSET = 0;
    public static final int PCAP_VERSION_MAJOR_OFFSET = 4;
    public static final int PCAP_VERSION_MINOR_OFFSET = 6;
    public static final int PCAP_THIS_ZONE_OFFSET = 8;
    public static final int PCAP_SIGFIGS_OFFSET = 12;
    public static final int PCAP_SNAPLEN_OFFSET = 16;
    public static final int PCAP_NETWORK_OFFSET = 20;
    public static final int PCAP_MAGIC_MICROSECONDS = 0xa1b2_c3d4;
    public static final int PCAP_MAGIC_NANOSECONDS = 0xa1b2_3c4d;
    public static final int PCAP_VERSION_MAJOR = 2;
    public static final int PCAP_VERSION_MINOR = 4;
    public static final int PCAP_SNAPLEN = 65_535;
    public static final int PCAP_HEADER_LENGTH = 24;

    /** The network field: each record an Ethernet frame (RoCE v2 as dumpcap captures it). */
    public static final int LINKTYPE_ETHERNET = 1;
    /** The network field: each record an ERF record (the only link type tshark decodes InfiniBand packets in). */
    public static final int LINKTYPE_ERF = 197;

    public static final int RECORD_TS_SECONDS_OFFSET = 0;
    public static final int RECORD_TS_NANOS_OFFSET = 4;
    public static final int RECORD_INCLUDED_LENGTH_OFFSET = 8;
    public static final int RECORD_ORIGINAL_LENGTH_OFFSET = 12;
    public static final int RECORD_HEADER_LENGTH = 16;

    private PcapFormat()
    {
    }

    /**
     * The classic pcap file header at offset 0 of {@code record}, little-endian: {@code magic} says the
     * timestamps' unit, {@code linkType} what each record holds. Every pcap writer starts so.
     */
    public static void putFileHeader(final UnsafeBuffer record, final int magic, final int linkType)
    {
        record.putInt(PCAP_MAGIC_OFFSET, magic, LITTLE_ENDIAN);
        record.putShort(PCAP_VERSION_MAJOR_OFFSET, (short)PCAP_VERSION_MAJOR, LITTLE_ENDIAN);
        record.putShort(PCAP_VERSION_MINOR_OFFSET, (short)PCAP_VERSION_MINOR, LITTLE_ENDIAN);
        record.putInt(PCAP_THIS_ZONE_OFFSET, 0, LITTLE_ENDIAN);
        record.putInt(PCAP_SIGFIGS_OFFSET, 0, LITTLE_ENDIAN);
        record.putInt(PCAP_SNAPLEN_OFFSET, PCAP_SNAPLEN, LITTLE_ENDIAN);
        record.putInt(PCAP_NETWORK_OFFSET, linkType, LITTLE_ENDIAN);
    }
}

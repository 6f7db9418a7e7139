package dev.rdmacm.cli;

import dev.rdmacm.sa.PcapMadRecorder;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --pcap FILE} (picocli mixin): every MAD sent and received, as a pcap tshark and Wireshark read. */
final class PcapOption
{
    @Option(names = "--pcap", paramLabel = "FILE",
        description = "write every MAD sent and received to FILE (pcap, ERF framing: tshark reads it)")
    Path pcap;

    boolean given()
    {
        return pcap != null;
    }

    /** A recorder writing to the file; null without the option. */
    PcapMadRecorder recorder()
    {
        return pcap == null ? null : PcapMadRecorder.create(pcap);
    }
}

package dev.rdmacm.cli;

import dev.rdmacm.cm.diagnostics.PcapCmMadRecorder;
import dev.rdmacm.sa.PcapMadRecorder;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --pcap FILE} (picocli mixin): every MAD sent and received, as a pcap tshark and Wireshark read.
 * SA MADs are written as InfiniBand packets (ERF framing); the CM's MADs of {@code rping}, which run on
 * RoCE, as the RoCE v2 Ethernet frames the wire carries ({@code docs/connection.md}).
 */
final class PcapOption
{
    @Option(names = "--pcap", paramLabel = "FILE",
        description = "write every MAD sent and received to FILE (a pcap tshark reads: ERF InfiniBand framing for SA MADs, "
            + "RoCE v2 Ethernet frames for CM MADs)")
    Path pcap;

    boolean given()
    {
        return pcap != null;
    }

    /** The CM's recorder writing RoCE v2 frames to the file; null without the option. */
    PcapCmMadRecorder cmRecorder()
    {
        return pcap == null ? null : PcapCmMadRecorder.create(pcap);
    }

    /** A recorder writing to the file; null without the option. */
    PcapMadRecorder recorder()
    {
        return pcap == null ? null : PcapMadRecorder.create(pcap);
    }
}

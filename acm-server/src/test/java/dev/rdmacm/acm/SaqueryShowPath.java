package dev.rdmacm.acm;

import dev.rdmacm.sa.testing.SimulatedFabric;

import java.util.List;
import java.util.Map;

/**
 * The "Path information" block ib_acme's {@code show_path} prints, built from saquery's record of the
 * same path: what every ib_acme run against a server on the simulated fabric must print.
 */
public final class SaqueryShowPath
{
    private SaqueryShowPath()
    {
    }

    /**
     * @param local    the node saquery runs on.
     * @param selector saquery's arguments that select exactly one PathRecord.
     */
    public static String of(final SimulatedFabric fabric, final String local, final String sgid, final String dgid,
        final String... selector)
    {
        final List<Map<String, String>> records = fabric.saquery(local, selector).records();
        if (records.size() != 1)
        {
            throw new AssertionError("saquery " + String.join(" ", selector) + " gave " + records.size() + " records");
        }
        final Map<String, String> path = records.get(0);
        final long hopFlow = Long.decode(path.get("hop_flow_raw"));
        return "Path information\n"
            + "  dgid: " + dgid + "\n"
            + "  sgid: " + sgid + "\n"
            + "  dlid: " + Long.decode(path.get("dlid")) + "\n"
            + "  slid: " + Long.decode(path.get("slid")) + "\n"
            + "  flow label: 0x" + Long.toHexString((hopFlow >>> 8) & 0xfffff) + "\n"
            + "  hop limit: " + (hopFlow & 0xff) + "\n"
            + "  tclass: " + Long.decode(path.get("tclass")) + "\n"
            + "  reversible: " + (Long.decode(path.get("num_path_revers")) >>> 7) + "\n"
            + "  pkey: 0x" + Long.toHexString(Long.decode(path.get("pkey"))) + "\n"
            + "  sl: " + (Long.decode(path.get("sl")) & 0xf) + "\n"
            + "  mtu: " + (Long.decode(path.get("mtu")) & 0x1f) + "\n"
            + "  rate: " + (Long.decode(path.get("rate")) & 0x1f) + "\n"
            + "  packet lifetime: " + (Long.decode(path.get("pkt_life")) & 0x1f) + "\n";
    }
}

package dev.rdmacm.sa.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A two-level fat tree of 36-port switches in ibnetdiscover's format, as a cluster is cabled: each
 * leaf has {@link #HCAS_PER_LEAF} HCAs on ports 1-18 and {@link #UPLINKS_PER_LEAF} uplinks on ports
 * 19-36; uplink {@code u} of leaf {@code l} is cable {@code g = l * 18 + u}, which goes to spine
 * {@code g % spines}, port {@code g / spines + 1}, so every leaf reaches 18 different spines and no
 * spine has more than 36 cables. HCAs are {@code Hca1..HcaN}, one port each; OpenSM runs on Hca1.
 * <pre>
 *   Spine1 ........ SpineS          S = ceil(leaves * 18 / 36)
 *    |  \  \   ...  /  /
 *   Leaf1   Leaf2  ...  LeafL      L = ceil(N / 18)
 *   |||     |||         |||
 *   Hca1-18 Hca19-36 ... HcaN
 * </pre>
 */
public final class FatTreeTopology
{
    public static final int SWITCH_PORTS = 36;
    public static final int HCAS_PER_LEAF = 18;
    public static final int UPLINKS_PER_LEAF = SWITCH_PORTS - HCAS_PER_LEAF;

    private FatTreeTopology()
    {
    }

    public static FabricTopology of(final int hcaCount)
    {
        if (hcaCount < 2)
        {
            throw new IllegalArgumentException("a fat tree of " + hcaCount + " HCAs: it needs at least 2");
        }
        final int leaves = (hcaCount + HCAS_PER_LEAF - 1) / HCAS_PER_LEAF;
        final int spines = (leaves * UPLINKS_PER_LEAF + SWITCH_PORTS - 1) / SWITCH_PORTS;
        final StringBuilder net = new StringBuilder(64 * (hcaCount + (leaves + spines) * SWITCH_PORTS));
        net.append("# fat tree: ").append(hcaCount).append(" HCAs, ").append(leaves).append(" leaves, ")
            .append(spines).append(" spines\n");
        for (int leaf = 0; leaf < leaves; leaf++)
        {
            net.append("Switch\t").append(SWITCH_PORTS).append(" \"Leaf").append(leaf + 1).append("\"\n");
            for (int port = 1; port <= HCAS_PER_LEAF; port++)
            {
                final int hca = leaf * HCAS_PER_LEAF + port;
                if (hca <= hcaCount)
                {
                    net.append('[').append(port).append("]\t\"Hca").append(hca).append("\"[1]\n");
                }
            }
            for (int uplink = 0; uplink < UPLINKS_PER_LEAF; uplink++)
            {
                final int cable = leaf * UPLINKS_PER_LEAF + uplink;
                net.append('[').append(HCAS_PER_LEAF + 1 + uplink).append("]\t\"Spine").append(cable % spines + 1)
                    .append("\"[").append(cable / spines + 1).append("]\n");
            }
            net.append('\n');
        }
        final int cables = leaves * UPLINKS_PER_LEAF;
        for (int spine = 0; spine < spines; spine++)
        {
            net.append("Switch\t").append(SWITCH_PORTS).append(" \"Spine").append(spine + 1).append("\"\n");
            for (int cable = spine; cable < cables; cable += spines)
            {
                net.append('[').append(cable / spines + 1).append("]\t\"Leaf").append(cable / UPLINKS_PER_LEAF + 1)
                    .append("\"[").append(HCAS_PER_LEAF + 1 + cable % UPLINKS_PER_LEAF).append("]\n");
            }
            net.append('\n');
        }
        final List<String> hcas = new ArrayList<>(hcaCount);
        for (int hca = 1; hca <= hcaCount; hca++)
        {
            hcas.add("Hca" + hca);
            final int leaf = (hca - 1) / HCAS_PER_LEAF;
            net.append("Hca\t1 \"Hca").append(hca).append("\"\n[1]\t\"Leaf").append(leaf + 1).append("\"[")
                .append((hca - 1) % HCAS_PER_LEAF + 1).append("]\n\n");
        }
        final int nodes = hcaCount + leaves + spines;
        final int ports = hcaCount + (leaves + spines) * (SWITCH_PORTS + 1);
        return new FabricTopology(
            "fat tree, " + hcaCount + " HCAs, " + leaves + " leaves, " + spines + " spines", net.toString(), "Hca1", "Hca2",
            hcas, nodes, List.of("-N", Integer.toString(capacity(nodes, 2048)), "-S", Integer.toString(capacity(leaves + spines, 256)),
                "-P", Integer.toString(capacity(ports, 13_312))),
            // about 1 s per 1,000 HCAs on 2 cores (shared/reference/ibsim-opensm.md), with room for a loaded machine
            Duration.ofSeconds(10 + hcaCount / 100));
    }

    /** ibsim's default, or the power of two that holds {@code needed}: 4,000 HCAs get -N 8192 -S 512 -P 32768. */
    private static int capacity(final int needed, final int ibsimDefault)
    {
        return needed <= ibsimDefault ? ibsimDefault : Integer.highestOneBit(needed - 1) << 1;
    }
}

package dev.rdmacm.sa.testing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FatTreeTopologyTest
{
    private static final Pattern NODE = Pattern.compile("^(Switch|Hca)\\t\\d+ \"([^\"]+)\"$");
    private static final Pattern CABLE = Pattern.compile("^\\[(\\d+)]\\t\"([^\"]+)\"\\[(\\d+)]$");

    /** Every cable as "node[port]-peer[port]", read from the node sections of the net file. */
    private static List<String> cables(final String net)
    {
        final List<String> cables = new ArrayList<>();
        String node = null;
        for (final String line : net.split("\n"))
        {
            final Matcher header = NODE.matcher(line);
            final Matcher cable = CABLE.matcher(line);
            if (header.matches())
            {
                node = header.group(2);
            }
            else if (cable.matches())
            {
                cables.add(node + "[" + cable.group(1) + "]-" + cable.group(2) + "[" + cable.group(3) + "]");
            }
        }
        return cables;
    }

    @Test
    void shouldDeclareEveryCableFromBothEndsAndUseEachPortOnce()
    {
        final List<String> cables = cables(FatTreeTopology.of(4000).netFile());
        final Set<String> declared = new HashSet<>(cables);
        final Set<String> ports = new HashSet<>();
        for (final String cable : cables)
        {
            final String[] ends = cable.split("-");
            assertTrue(declared.contains(ends[1] + "-" + ends[0]), "the other end of " + cable);
            assertTrue(ports.add(ends[0]), "port used twice: " + ends[0]);
        }
        // 4,000 HCA cables and 223 leaves x 18 uplinks, each declared at both ends
        assertEquals(2 * (4000 + 223 * 18), cables.size());
    }

    @Test
    void shouldSizeIbsimForFourThousandHcasAsTheIssueMeasured()
    {
        final FabricTopology topology = FatTreeTopology.of(4000);
        assertEquals(List.of("-N", "8192", "-S", "512", "-P", "32768"), topology.ibsimCapacity());
        assertEquals(4000 + 223 + 112, topology.nodes());
    }

    @Test
    void shouldBeSweptByOpenSmWithEveryHcaReachable()
    {
        final FabricTopology topology = FatTreeTopology.of(20);
        try (SimulatedFabric fabric = SimulatedFabric.start(topology))
        {
            assertEquals(topology.hcas().stream().sorted().toList(), fabric.hcaPorts().stream().map(FabricPort::node).sorted().toList());
            final FabricPort from = fabric.port("Hca2");
            final FabricPort to = fabric.port("Hca20");
            final var records = fabric.saquery("Hca2", "-p", "--sgid", from.gid().toString(), "--dgid", to.gid().toString()).records();
            assertEquals(1, records.size());
            assertEquals(Integer.toString(to.lid()), records.getFirst().get("dlid"));
        }
    }
}

package dev.rdmacm.sa.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * What {@link SimulatedFabric} hands ibsim: a topology in ibnetdiscover's format, the node OpenSM
 * attaches as, the node {@code saquery -c} probes the SA from, the HCA names, the number of nodes
 * (HCAs and switches: the LIDs OpenSM assigns with LMC 0), ibsim's capacity
 * options (its defaults stop at 2,048 nodes, 256 switches and 13,312 ports) and how long OpenSM's
 * first sweep may take before the SA must answer.
 */
public record FabricTopology(String description, String netFile, String smNode, String probeNode, List<String> hcas,
    int nodes, List<String> ibsimCapacity, Duration saReadyWithin)
{
    public FabricTopology
    {
        hcas = List.copyOf(hcas);
        ibsimCapacity = List.copyOf(ibsimCapacity);
        if (!hcas.contains(smNode) || !hcas.contains(probeNode))
        {
            throw new IllegalArgumentException("the SM node " + smNode + " and the probe node " + probeNode + " must be HCAs");
        }
    }

    /** {@code topo.net}: two switches joined by two links, four HCAs; OpenSM on Hca1, probed from Hca2. */
    public static FabricTopology twoSwitches()
    {
        try (InputStream in = FabricTopology.class.getResourceAsStream("topo.net"))
        {
            return new FabricTopology("2 switches, 4 HCAs (topo.net)", new String(in.readAllBytes(), StandardCharsets.US_ASCII),
                "Hca1", "Hca2", List.of("Hca1", "Hca2", "Hca3", "Hca4"), 6, List.of(), Duration.ofSeconds(10));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read topo.net from the test classpath", ex);
        }
    }
}

package dev.rdmacm.sa.testing;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatedFabricTest
{
    @Test
    void shouldStartFabricWhoseSaAnswersSaqueryAndStopEverythingItStarted()
    {
        final java.nio.file.Path dir;
        try (SimulatedFabric fabric = SimulatedFabric.start())
        {
            dir = fabric.workDir();
            assertEquals(SimulatedFabric.HCAS, fabric.hcaPorts().stream().map(FabricPort::node).sorted().toList());
            final FabricPort hca2 = fabric.port("Hca2");
            final FabricPort hca3 = fabric.port("Hca3");
            final List<Map<String, String>> records = fabric.saquery(
                "Hca2", "-p", "--sgid", hca2.gid().toString(), "--dgid", hca3.gid().toString()).records();
            assertEquals(1, records.size());
            assertEquals(Integer.toString(hca3.lid()), records.get(0).get("dlid"));
            assertEquals(hca3.gid().toString(), records.get(0).get("dgid"));
            assertTrue(fabric.subnetManagerRunning());
        }
        assertFalse(java.nio.file.Files.exists(dir));
    }
}

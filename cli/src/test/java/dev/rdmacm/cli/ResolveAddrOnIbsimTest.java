package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code rdmacm resolve-addr --fabric F --hosts FILE} on ibsim + OpenSM: the shared --hosts option. */
class ResolveAddrOnIbsimTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @TempDir
    Path dir;

    @Test
    void shouldResolveTheDestinationGidFromTheHostsFile() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final Path hosts = FabricHosts.write(fabric, dir);
        final FabricPort destination = fabric.port("Hca3");

        final CommandRun run = run("resolve-addr", "10.0.0." + destination.lid(), "--json",
            "--fabric", "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":Hca2", "--hosts", hosts.toString());

        assertEquals(0, run.exit(), run.out() + run.err());
        final JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals("ADDR_RESOLVED", json.get("event").asText());
        assertEquals(destination.gid().toString(), json.get("dgid").asText());
    }
}

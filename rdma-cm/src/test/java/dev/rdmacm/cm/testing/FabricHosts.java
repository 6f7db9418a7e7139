package dev.rdmacm.cm.testing;

import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An ibacm hosts file for the simulated fabric: HCA port with LID n is 10.0.0.n. */
public final class FabricHosts
{
    private FabricHosts()
    {
    }

    public static InetAddress address(final FabricPort port)
    {
        try
        {
            return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte)port.lid()});
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** Writes {@code dir/ibacm_hosts.data} with one {@code address GID} line per HCA port. */
    public static Path write(final SimulatedFabric fabric, final Path dir) throws IOException
    {
        final List<String> lines = new ArrayList<>();
        lines.add("# address GID, as ib_acme -A writes ibacm_hosts.data");
        for (final FabricPort port : fabric.hcaPorts())
        {
            lines.add(address(port).getHostAddress() + " " + port.gid());
        }
        return Files.write(dir.resolve("ibacm_hosts.data"), lines);
    }
}

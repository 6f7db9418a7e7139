package dev.rdmacm.sa.transport.ibsim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a simulated fabric is started, in the one place both its launchers read it (the CLI's demo and
 * {@code rdmacm fabric}, and the tests' fixture): ibsim in remote mode on a UDP port, and a program
 * attached to it as one node through umad2sim (OpenSM, saquery), which is told where ibsim is and which
 * node it is by its environment.
 */
public final class IbsimCommandLines
{
    /** ibsim's address for its clients: it listens on every address, its clients talk to loopback. */
    public static final String HOST = "127.0.0.1";
    /** What ibsim prints once it reads the topology and listens. */
    public static final String READY_LINE = "Network simulator ready";

    private IbsimCommandLines()
    {
    }

    /**
     * {@code ibsim -s -n -r -l PORT [CAPACITY...] NETFILE}: start the fabric, no console, remote mode
     * on UDP ports PORT..PORT+11 ({@link IbsimPorts}); {@code capacity} raises its node, switch and port
     * limits for a large topology.
     */
    public static List<String> ibsim(final int ctlPort, final List<String> capacity, final Path netFile)
    {
        final List<String> command = new ArrayList<>(List.of("ibsim", "-s", "-n", "-r", "-l", Integer.toString(ctlPort)));
        command.addAll(capacity);
        command.add(netFile.toString());
        return command;
    }

    /** {@code opensm -f DIR/osm.log -e}: its log in {@code smDir}, erased at start. */
    public static List<String> openSm(final Path smDir)
    {
        return List.of("opensm", "-f", smDir.resolve("osm.log").toString(), "-e");
    }

    /** The environment a umad2sim program needs to attach to the ibsim on {@code ctlPort} as {@code node}. */
    public static Map<String, String> umadEnvironment(final int ctlPort, final String node)
    {
        return Map.of(
            "LD_PRELOAD", Umad2simLibrary.find().toString(),
            "SIM_HOST", node,
            "IBSIM_SERVER_NAME", HOST,
            "IBSIM_SERVER_PORT", Integer.toString(ctlPort));
    }

    /** OpenSM's: {@link #umadEnvironment} and its cache and temporary files in {@code smDir}, not /var. */
    public static Map<String, String> openSmEnvironment(final int ctlPort, final String node, final Path smDir)
    {
        final Map<String, String> environment = new HashMap<>(umadEnvironment(ctlPort, node));
        environment.put("OSM_CACHE_DIR", smDir.toString());
        environment.put("OSM_TMP_DIR", smDir.toString());
        return Map.copyOf(environment);
    }
}

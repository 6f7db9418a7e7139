package dev.rdmacm.cli;

import dev.rdmacm.cli.demo.DemoFabric;
import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.sa.transport.ibsim.IbsimPorts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm fabric start|status|stop}: the demo's simulated fabric (ibsim and OpenSM on the bundled
 * topology, {@link DemoFabric}), kept running after the command exits, for the other commands'
 * {@code --fabric} and {@code --hosts}. The two processes run in sessions of their own; their PIDs, start
 * times and the values to pass are in {@code fabric.properties} in the state directory
 * ({@code $XDG_RUNTIME_DIR/rdmacm-fabric}, or {@code --state-dir}), and only those PIDs are looked at
 * and stopped.
 */
@Command(
    name = "fabric",
    mixinStandardHelpOptions = true,
    subcommands = {FabricCommand.Start.class, FabricCommand.Status.class, FabricCommand.Stop.class},
    description = {
        "Keeps the demo's simulated InfiniBand fabric (ibsim + OpenSM) running for the other commands: "
            + "start prints the --fabric and --hosts values they take, status tells whether it runs, stop stops it.",
        "The state directory is $XDG_RUNTIME_DIR/rdmacm-fabric (or the temporary directory's rdmacm-fabric-USER "
            + "without XDG_RUNTIME_DIR), or --state-dir."
    })
public final class FabricCommand implements Runnable
{
    /** ibsim's own default port (IBSIM_SERVER_PORT), so that the values printed are the same every time. */
    static final int DEFAULT_PORT = 7070;
    /** errno values {@link Errno} names but holds no constant for. */
    private static final int EEXIST = 17;
    private static final int ESTALE = 116;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: give start, status or stop");
    }

    /** {@code --state-dir} and the default the environment gives. */
    static final class StateDirOption
    {
        @Option(names = "--state-dir", paramLabel = "DIR",
            description = "where the PIDs and files of the fabric live (default $XDG_RUNTIME_DIR/rdmacm-fabric)")
        Path stateDir;

        Path resolve(final Map<String, String> environment)
        {
            if (stateDir != null)
            {
                return stateDir.toAbsolutePath();
            }
            final String runtime = environment.get("XDG_RUNTIME_DIR");
            if (runtime != null && !runtime.isEmpty())
            {
                return Path.of(runtime, "rdmacm-fabric");
            }
            return Path.of(System.getProperty("java.io.tmpdir"), "rdmacm-fabric-" + System.getProperty("user.name"));
        }
    }

    /** What the three share: the state directory, the output, and the error line naming it. */
    abstract static class Part implements Callable<Integer>
    {
        @CommandLine.Mixin
        StateDirOption stateDirOption = new StateDirOption();

        @CommandLine.Mixin
        JsonOption jsonOption = new JsonOption();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        Path dir;
        CommandOutput output;

        @Override
        public final Integer call() throws IOException, InterruptedException
        {
            dir = stateDirOption.resolve(System.getenv());
            output = CommandOutput.of(spec, jsonOption.json);
            try
            {
                return run(FabricState.read(dir));
            }
            catch (final FileSystemException ex)
            {
                // its message is the bare path; the reason, or the kind of failure, is the rule broken
                final String reason = ex instanceof AccessDeniedException ? "permission denied"
                    : ex instanceof FileAlreadyExistsException ? "exists and is no directory"
                    : ex.getReason() != null ? ex.getReason() : ex.getClass().getSimpleName();
                return error(Errno.EIO, where() + ": " + (dir.toString().equals(ex.getFile()) ? "" : ex.getFile() + ": ") + reason);
            }
            catch (final IOException ex)
            {
                return error(Errno.EIO, ex.getMessage());
            }
        }

        abstract int run(FabricState state) throws IOException, InterruptedException;

        int error(final int errno, final String message)
        {
            return output.error(JsonOutput.errno(errno, message));
        }

        String where()
        {
            return "--state-dir " + dir;
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
        description = {"Starts ibsim and OpenSM on the demo's topology (4 HCAs, 2 switches), writes an ibacm hosts file "
            + "for its HCAs (10.0.0.LID each), and prints the --fabric and --hosts values; they run until fabric stop.",
            "Exit 0 started, 1 when a fabric is already recorded in the state directory (running or not), a peer is missing "
                + "or the port is taken."})
    static final class Start extends Part
    {
        @Option(names = "--port", paramLabel = "P", defaultValue = "" + DEFAULT_PORT,
            description = "ibsim's UDP port; it takes P to P+11 (default ${DEFAULT-VALUE})")
        int port;

        @Option(names = "--node", paramLabel = "NODE", defaultValue = "Hca2",
            description = "the HCA the printed --fabric attaches as: Hca2, Hca3 or Hca4 (Hca1 is OpenSM's; default ${DEFAULT-VALUE})")
        String node;

        @Override
        int run(final FabricState recorded) throws IOException
        {
            if (port < 1 || port > 65535 - IbsimPorts.PER_SIMULATOR)
            {
                throw new IllegalArgumentException("--port " + port + ": must be 1 to " + (65535 - IbsimPorts.PER_SIMULATOR));
            }
            if (!List.of("Hca2", "Hca3", "Hca4").contains(node))
            {
                throw new IllegalArgumentException("--node " + node + ": must be Hca2, Hca3 or Hca4");
            }
            if (recorded != null)
            {
                final String dead = recorded.dead();
                return dead.isEmpty()
                    ? error(EEXIST, where() + ": a fabric started there still runs (ibsim pid " + recorded.ibsimPid()
                        + ", OpenSM pid " + recorded.openSmPid() + "); rdmacm fabric stop stops it")
                    : error(ESTALE, where() + ": the fabric recorded there has stopped (" + dead
                        + " not running); rdmacm fabric stop removes its state");
            }
            final String missing = DemoFabric.missingCommand();
            if (missing != null)
            {
                return error(Errno.ENOENT, missing + " is not on PATH; scripts/setup runtime installs it");
            }
            if (!IbsimPorts.free(port))
            {
                return error(Errno.EADDRINUSE, "--port " + port + ": UDP ports " + port + " to " + (port + IbsimPorts.PER_SIMULATOR - 1)
                    + " are not all free, and ibsim needs them; give another --port");
            }
            Files.createDirectories(dir);
            final DemoFabric fabric;
            try
            {
                fabric = DemoFabric.startKept(dir, port, ignored -> { });
            }
            catch (final MadTransportException | IOException ex)
            {
                return error(Errno.ENODEV, "cannot start ibsim and OpenSM: " + ex.getMessage());
            }
            final List<String> hosts = new ArrayList<>();
            for (final LocalPort each : fabric.hcaPorts())
            {
                hosts.add(each.name() + " " + each.lid() + " " + each.gid() + " " + DemoFabric.address(each).getHostAddress());
            }
            final List<Long> pids = fabric.pids();
            final List<Long> starts = fabric.startMillis();
            final FabricState state = new FabricState(dir, pids.get(0), starts.get(0), pids.get(1), starts.get(1), port, node, hosts);
            try
            {
                state.write();
            }
            catch (final IOException ex)
            {
                fabric.close();
                return error(Errno.EIO, FabricState.file(dir) + ": " + ex.getMessage());
            }
            return output.result(state.json(), out -> out.print(state.text()));
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Tells whether the fabric fabric start recorded still runs (by its PIDs), and prints its --fabric and --hosts values.",
            "Exit 0 when both processes run, 1 when none was started or one of them stopped."})
    static final class Status extends Part
    {
        @Override
        int run(final FabricState state)
        {
            if (state == null)
            {
                return error(Errno.ENOENT, where() + ": no fabric started there; rdmacm fabric start starts one");
            }
            final String dead = state.dead();
            if (!dead.isEmpty())
            {
                return error(ESTALE, where() + ": the fabric recorded there has stopped (" + dead
                    + " not running); rdmacm fabric stop removes its state");
            }
            return output.result(state.json(), out -> out.print(state.text()));
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
        description = {"Stops the processes fabric start started, by their recorded PIDs, and removes the files it wrote.",
            "Exit 0, also when nothing was started (it says so): stopping twice is stopping once."})
    static final class Stop extends Part
    {
        @Override
        int run(final FabricState state) throws InterruptedException
        {
            final JsonObject json = new JsonObject().put("state_dir", dir.toString());
            final JsonArray stoppedJson = json.putArray("stopped_pids");
            if (state == null)
            {
                json.put("was_started", false);
                return output.result(json, out -> out.println("no fabric started in " + dir + ": nothing to stop"));
            }
            final List<Long> stopped = state.stop();
            stopped.forEach(stoppedJson::add);
            try
            {
                Files.deleteIfExists(FabricState.file(dir));
            }
            catch (final IOException ex)
            {
                return error(Errno.EIO, FabricState.file(dir) + ": " + ex.getMessage());
            }
            DemoFabric.removeFiles(dir);
            json.put("was_started", true);
            return output.result(json, out -> out.println((stopped.isEmpty() ? "nothing ran any more (" + state.dead() + ")"
                : "stopped " + stopped.size() + " process" + (stopped.size() == 1 ? "" : "es") + " (pid "
                    + stopped.stream().map(String::valueOf).reduce((a, b) -> a + ", pid " + b).orElseThrow() + ")")
                + "; removed the fabric's files from " + dir));
        }
    }
}

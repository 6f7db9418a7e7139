package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.verbs.Verbs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm cmtime}: librdmacm's {@code cmtime} (rdma-core 44) on this project's CM, option for
 * option and line for line: with {@code -s} the client times each step for every connection (create
 * id, bind addr, resolve addr, resolve route, create qp, connect, disconnect, destroy) and prints
 * cmtime's table; without it the server accepts and tears down whatever comes, until stopped.
 * {@code --rounds} (not cmtime's) repeats the client's run in one process, a table per round, so that
 * the later rounds show the CM after the JIT has compiled it.
 */
@Command(
    name = "cmtime",
    mixinStandardHelpOptions = true,
    description = {
        "librdmacm's cmtime on this project's CM: -s SERVER times connection setup and teardown, no -s serves.",
        "--cm auto (the default) takes this project's CM where it can own the CM class on umad, the kernel's CM where ib_cm holds it.",
        "Exit 0 success, 255 failure, 2 usage; as cmtime, 1 with no RDMA device and getaddrinfo's code for a name "
            + "it cannot resolve (EAI_NONAME: 254)."
    })
public final class CmtimeCommand implements Callable<Integer>
{
    /** cmtime's {@code exit(1)} when the first event channel cannot be made: no RDMA device. */
    static final int NO_DEVICE = 1;
    private static final String NO_DEVICES = "No RDMA devices were detected";

    @Option(names = "-s", paramLabel = "SERVER", description = "the server's address: run as the client")
    String server;

    @Option(names = "-b", paramLabel = "ADDR", description = "the address to bind (the client's source, the server's listen address)")
    String bind;

    @Option(names = "-c", paramLabel = "CONNECTIONS", defaultValue = "100", description = "connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-r", paramLabel = "RETRIES", defaultValue = "2", description = "retries of an address or route "
        + "resolution, and the REQ's transport retry count (default ${DEFAULT-VALUE})")
    int retries;

    @Option(names = "-t", paramLabel = "TIMEOUT_MS", defaultValue = "2000", description = "resolution timeout (default ${DEFAULT-VALUE})")
    int timeoutMs;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "client runs in this process (default ${DEFAULT-VALUE})")
    int rounds;

    @CommandLine.Mixin
    ConnectionManagerOption cmOption = new ConnectionManagerOption();

    /** One object: the client's every round, every step's times, every connection's (docs/json.md). */
    @CommandLine.Mixin
    JsonOption jsonOption = new JsonOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException
    {
        validateOptions();
        final RdmaCm.Options cmOptions = cmOption.options(spec);
        final CommandOutput output = CommandOutput.of(spec, jsonOption.json);
        final InetSocketAddress local;
        final InetAddress serverAddress;
        try
        {
            local = bind == null ? null : new InetSocketAddress(HostLookup.resolve(bind), server == null ? port : 0);
            serverAddress = server == null ? null : HostLookup.resolve(server);
        }
        catch (final HostLookup.Failed ex)
        {
            final String option = ex.name.equals(bind) ? "-b" : "-s";
            // cmtime's "getaddrinfo error: TEXT" and its status, getaddrinfo's code; the name and its option first
            failure(output, ex.json(option), "rdmacm cmtime: " + option + " " + ex.name + ": getaddrinfo error: " + ex.error.message());
            return ex.error.code() & 0xff;
        }
        if (Verbs.listDevices().isEmpty())
        {
            // cmtime's create_first_event_channel: ENODEV from rdma_create_event_channel, exit(1); so a server
            // never says it listens where no RDMA port can answer
            failure(output, JsonOutput.errno(Errno.ENODEV, NO_DEVICES), NO_DEVICES);
            return NO_DEVICE;
        }
        try (RdmaCm cm = RdmaCm.open(cmOptions); EventChannel channel = cm.createEventChannel())
        {
            if (server == null)
            {
                new CmtimeServer(cm, channel, local == null ? new InetSocketAddress(port) : local, System.err).serve();
                return 0;
            }
            // under --json the progress lines and the table give way to one object at the end
            final PrintStream progress = output.json() ? new PrintStream(OutputStream.nullOutputStream()) : System.out;
            final CmtimeClient client = new CmtimeClient(cm, channel, connections, local, new InetSocketAddress(serverAddress, port),
                retries, Duration.ofMillis(timeoutMs), progress, System.err);
            final JsonObject result = new JsonObject().put("server", AddressText.of(serverAddress, AddressText::localInterfaceName))
                .put("port", port).put("connections", connections);
            final JsonArray roundsJson = result.putArray("rounds");
            boolean ok = true;
            try (DeviceProtectionDomains devices = new DeviceProtectionDomains())
            {
                for (int round = 0; round < rounds; round++)
                {
                    final boolean roundOk = client.run(devices);
                    roundsJson.addObject().put("ok", roundOk).put("steps", client.times().json(local != null));
                    ok &= roundOk;
                }
            }
            if (output.json())
            {
                output.result(result.put("ok", ok), ignored -> { });
            }
            return ok ? 0 : RpingCommand.FAILED;
        }
        catch (final RdmaCmException ex)
        {
            failure(output, JsonOutput.errno(ex.errno(), ex.getMessage()), ex.getMessage());
            return RpingCommand.FAILED;
        }
    }

    /** cmtime's own line on stderr, or under {@code --json} the error object on stdout; the status is the caller's. */
    private static void failure(final CommandOutput output, final JsonObject error, final String line)
    {
        if (output.json())
        {
            output.error(error);
        }
        else
        {
            System.err.println(line);
        }
    }

    private void validateOptions()
    {
        if (connections < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-c " + connections + ": at least 1 connection");
        }
        if (port < 0 || port > 0xffff)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-p " + port + ": must be 0-65535");
        }
        if (retries < 0 || retries > 7)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-r " + retries + ": must be 0-7, the REQ's retry count field");
        }
        if (timeoutMs < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-t " + timeoutMs + ": at least 1 ms");
        }
        if (rounds < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds " + rounds + ": at least 1");
        }
        if (server == null && rounds != 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds is the client's: give -s SERVER with it");
        }
    }
}

package dev.rdmacm.cli;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@code rdmacm path}: asks the SA for PathRecords, as rdma_resolve_route does, and prints every field.
 */
@Command(
    name = "path",
    mixinStandardHelpOptions = true,
    description = {
        "Queries the Subnet Administrator for PathRecords to a destination GID or LID and prints every field.",
        "Without --fabric the SA is reached over verbs (the first device); --timeout-ms bounds the whole query, retries included.",
        "Exit status: 0 paths found, 1 the SA said no (NO_RECORDS, INVALID_GID...) or did not answer (ETIMEDOUT), 2 bad usage."
    })
public final class PathCommand implements Callable<Integer>
{
    static final class Destination
    {
        @Option(names = "--dgid", paramLabel = "GID", description = "destination GID, e.g. fe80::10:7")
        String dgid;

        @Option(names = "--dlid", paramLabel = "LID", description = "destination LID, decimal or 0x hex")
        String dlid;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Destination destination;

    @Option(names = "--sgid", paramLabel = "GID", description = "source GID (default: the local port's GID when no --slid)")
    String sgid;

    @Option(names = "--slid", paramLabel = "LID", description = "source LID")
    String slid;

    @Option(names = "--pkey", paramLabel = "P", description = "P_Key, e.g. 0xffff")
    String pkey;

    @Option(names = "--service-id", paramLabel = "ID", description = "Service ID, decimal or 0x hex")
    String serviceId;

    @Option(names = "--tclass", paramLabel = "T", description = "traffic class 0-255")
    String tclass;

    @Option(names = "--qos-class", paramLabel = "Q", description = "QoS class 0-4095")
    String qosClass;

    @Option(names = "--sl", paramLabel = "S", description = "service level 0-15")
    String sl;

    @Option(names = "--numb-path", paramLabel = "N", defaultValue = "1",
        description = "most paths wanted, 1-127; 0 leaves NumbPath out of the query (default ${DEFAULT-VALUE})")
    String numbPath;

    @Option(names = "--reversible", description = "only paths usable in both directions")
    boolean reversible;

    @Option(names = "--table", description = "SubnAdmGetTable (every record, as saquery) instead of SubnAdmGet")
    boolean table;

    /** Without {@code --fabric}: the first verbs device. */
    static final String DEFAULT_FABRIC = "verbs";

    @CommandLine.Mixin
    FabricOption fabric = new FabricOption();

    /** Here the deadline of the whole query, retries included. */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption();

    @CommandLine.Mixin
    PcapOption pcap = new PcapOption();

    @CommandLine.Mixin
    JsonOption json = new JsonOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private CommandOutput output;

    @Override
    public Integer call()
    {
        final long timeoutMs = timeout.atLeast(1);
        final FabricOption source = fabric.given() ? fabric : FabricOption.of(DEFAULT_FABRIC);
        source.spec(); // a malformed fabric is a usage error before anything is opened
        output = CommandOutput.of(spec, json.json);
        try (PcapMadRecorder recorder = pcap.recorder())
        {
            final SaClientConfig config = recorder == null ? SaClientConfig.defaults() : SaClientConfig.defaults().withRecorder(recorder);
            final SaClient client;
            try
            {
                client = source.start(timeoutMs, config);
            }
            catch (final MadTransportException ex)
            {
                return output.error(source.error(ex));
            }
            return query(client, timeoutMs);
        }
    }

    private int query(final SaClient sa, final long timeout)
    {
        try (SaClient client = sa)
        {
            final PathQuery query = query(client.localPort().gid());
            final List<PathRecordValue> paths;
            try
            {
                paths = PathRecords.query(client, query, Duration.ofMillis(timeout)).get(timeout + 5_000, TimeUnit.MILLISECONDS);
            }
            catch (final ExecutionException ex)
            {
                if (ex.getCause() instanceof SaQueryException failure)
                {
                    return output.error(PathJson.toJson(failure));
                }
                throw new IllegalStateException(ex.getCause());
            }
            catch (final InterruptedException | java.util.concurrent.TimeoutException ex)
            {
                throw new IllegalStateException("the SA client did not end the query", ex);
            }
            return output.result(PathJson.toJson(paths), out -> out.print(PathText.format(paths)));
        }
    }

    private PathQuery query(final Gid localGid)
    {
        final Gid dgid = destination.dgid == null ? null : Gid.parse(destination.dgid);
        final int dlid = destination.dlid == null ? 0 : Lid.parse(destination.dlid).value();
        final int source = slid == null ? 0 : Lid.parse(slid).value();
        final Gid sourceGid = sgid != null ? Gid.parse(sgid) : source == 0 ? localGid : null;
        final PathQuery.Builder query = PathQuery.builder().dgid(dgid).sgid(sourceGid).dlid(dlid).slid(source)
            .reversible(reversible).table(table);
        if (pkey != null)
        {
            query.pKey(PKey.parse(pkey));
        }
        if (serviceId != null)
        {
            query.serviceId(ServiceId.parse(serviceId));
        }
        if (tclass != null)
        {
            query.tClass((int)unsigned("--tclass", tclass, 0xff));
        }
        if (qosClass != null)
        {
            query.qosClass((int)unsigned("--qos-class", qosClass, 0xfff));
        }
        if (sl != null)
        {
            query.sl((int)unsigned("--sl", sl, 15));
        }
        return query.numbPath((int)unsigned("--numb-path", numbPath, 127)).build();
    }

    /** Decimal or 0x hexadecimal, 0..max; the error names the option and the rule. */
    static long unsigned(final String option, final String text, final long max)
    {
        final String trimmed = text.strip();
        final boolean hex = trimmed.startsWith("0x") || trimmed.startsWith("0X");
        try
        {
            final String digits = hex ? trimmed.substring(2) : trimmed;
            if (!digits.isEmpty() && Character.digit(digits.charAt(0), 16) >= 0)
            {
                final long value = Long.parseLong(digits, hex ? 16 : 10);
                if (value <= max)
                {
                    return value;
                }
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the rule
        }
        throw new IllegalArgumentException(option + " '" + text + "': expected 0.." + max + ", decimal or 0x hex");
    }
}

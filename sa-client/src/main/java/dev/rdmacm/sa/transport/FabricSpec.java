package dev.rdmacm.sa.transport;

import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.sa.transport.verbs.VerbsTransport;

import java.time.Duration;

/**
 * Where MADs go, as a user writes it: {@code verbs[:DEV[:PORT]]} for a real HCA, or
 * {@code ibsim:HOST:PORT:NODE} for an ibsim fabric in UDP mode attached as the named node.
 */
public sealed interface FabricSpec permits FabricSpec.Verbs, FabricSpec.Ibsim
{
    /** A libibverbs device and port; null device means the first one, port 1 by default. */
    record Verbs(String device, int port) implements FabricSpec
    {
        @Override
        public MadTransport open(final Duration timeout)
        {
            return VerbsTransport.open(device, port);
        }

        @Override
        public String toString()
        {
            return "verbs" + (device == null ? "" : ":" + device + ":" + port);
        }
    }

    /** An ibsim started with {@code -r -l PORT}, attached as {@code node}. */
    record Ibsim(String host, int port, String node) implements FabricSpec
    {
        @Override
        public MadTransport open(final Duration timeout)
        {
            return IbsimTransport.attach(host, port, node, timeout);
        }

        @Override
        public String toString()
        {
            return "ibsim:" + host + ":" + port + ":" + node;
        }
    }

    /** Attaches to the fabric. */
    MadTransport open(Duration timeout);

    /**
     * Parses {@code verbs}, {@code verbs:mlx5_0}, {@code verbs:mlx5_0:2} or {@code ibsim:127.0.0.1:7070:Hca2}.
     *
     * @throws IllegalArgumentException naming the text and the expected forms.
     */
    static FabricSpec parse(final String text)
    {
        final String forms = "expected verbs[:DEV[:PORT]] or ibsim:HOST:PORT:NODE";
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException("fabric: empty, " + forms);
        }
        final String[] parts = text.split(":", -1);
        switch (parts[0])
        {
            case "verbs" ->
            {
                if (parts.length > 3 || (parts.length >= 2 && parts[1].isEmpty()))
                {
                    throw new IllegalArgumentException("fabric '" + text + "': " + forms);
                }
                return new Verbs(parts.length >= 2 ? parts[1] : null, parts.length == 3 ? port(text, parts[2], 1, 255) : 1);
            }
            case "ibsim" ->
            {
                if (parts.length != 4 || parts[1].isEmpty() || parts[3].isEmpty())
                {
                    throw new IllegalArgumentException("fabric '" + text + "': " + forms);
                }
                return new Ibsim(parts[1], port(text, parts[2], 1, 0xffff - 11), parts[3]);
            }
            default -> throw new IllegalArgumentException("fabric '" + text + "': unknown kind '" + parts[0] + "', " + forms);
        }
    }

    private static int port(final String text, final String value, final int min, final int max)
    {
        try
        {
            final int port = Integer.parseInt(value);
            if (port >= min && port <= max)
            {
                return port;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the rule
        }
        throw new IllegalArgumentException("fabric '" + text + "': port '" + value + "' must be a number " + min + ".." + max);
    }
}

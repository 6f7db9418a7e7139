package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.sa.transport.verbs.VerbsTransport;

import java.time.Duration;

/**
 * Where MADs go, as a user writes it: {@code verbs[:DEV[:PORT[:sa-gid=GID]]]} for a real HCA, or
 * {@code ibsim:HOST:PORT:NODE} for an ibsim fabric in UDP mode attached as the named node.
 * <p>
 * {@code sa-gid} names the SA by its GID, which is then reached with a global route header. A RoCE
 * port has no LIDs and no SM, so there it is the only way to name an SA; the GID is last because its
 * text has colons of its own ({@code verbs:rxe0:1:sa-gid=::ffff:10.10.0.2}).
 */
public sealed interface FabricSpec permits FabricSpec.Verbs, FabricSpec.Ibsim
{
    /**
     * A libibverbs device and port; null device means the first one, port 1 by default.
     *
     * @param saGid the SA's GID (reached with a GRH), or null for the SM's LID from PortInfo.
     */
    record Verbs(String device, int port, Gid saGid) implements FabricSpec
    {
        public Verbs(final String device, final int port)
        {
            this(device, port, null);
        }

        @Override
        public MadTransport open(final Duration timeout)
        {
            return VerbsTransport.open(device, port, saGid);
        }

        @Override
        public String toString()
        {
            return "verbs" + (device == null ? "" : ":" + device + ":" + port) + (saGid == null ? "" : ":" + SA_GID + saGid);
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

    /** The option that names the SA by its GID. */
    String SA_GID = "sa-gid=";

    /** Attaches to the fabric. */
    MadTransport open(Duration timeout);

    /**
     * Parses {@code verbs}, {@code verbs:mlx5_0}, {@code verbs:mlx5_0:2}, {@code verbs:rxe0:1:sa-gid=::ffff:10.0.0.2}
     * or {@code ibsim:127.0.0.1:7070:Hca2}.
     *
     * @throws IllegalArgumentException naming the text and the expected forms.
     */
    static FabricSpec parse(final String text)
    {
        final String forms = "expected verbs[:DEV[:PORT[:sa-gid=GID]]] or ibsim:HOST:PORT:NODE";
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException("fabric: empty, " + forms);
        }
        final String[] parts = text.split(":", -1);
        switch (parts[0])
        {
            case "verbs" ->
            {
                // At most four fields: the fourth, a GID, keeps its own colons.
                final String[] fields = text.split(":", 4);
                if ((fields.length >= 2 && fields[1].isEmpty()) || (fields.length == 4 && !fields[3].startsWith(SA_GID)))
                {
                    throw new IllegalArgumentException("fabric '" + text + "': " + forms);
                }
                return new Verbs(fields.length >= 2 ? fields[1] : null, fields.length >= 3 ? port(text, fields[2], 1, 255) : 1,
                    fields.length == 4 ? saGid(text, fields[3].substring(SA_GID.length())) : null);
            }
            case "ibsim" ->
            {
                if (parts.length != 4 || parts[1].isEmpty() || parts[3].isEmpty())
                {
                    throw new IllegalArgumentException("fabric '" + text + "': " + forms);
                }
                return new Ibsim(parts[1], port(text, parts[2], 1, 0xffff - 11), parts[3]);
            }
            default -> throw new IllegalArgumentException("fabric '" + text + "': "
                // a text with no colon is all kind: naming it again would say it twice
                + (parts.length > 1 ? "unknown kind '" + parts[0] + "', " : "") + forms);
        }
    }

    private static Gid saGid(final String text, final String value)
    {
        try
        {
            return Gid.parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("fabric '" + text + "': " + SA_GID + " needs a GID: " + ex.getMessage(), ex);
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

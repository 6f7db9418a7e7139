package dev.rdmacm.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code rdma resource show cm_id}, as iproute2's {@code rdma/res-cmid.c} ({@code res_cm_id_line})
 * prints it: {@code link rxe0/- cm-idn 3 state LISTEN ps UDP pid 212 comm udaddy src-addr 0.0.0.0:7174 },
 * each field {@code "name value "}, the addresses as {@code inet_ntop}'s text, a colon and the port. The same
 * from iproute2 6.1 (Debian 12's, the guest's) to 6.19. Only what a test waits on is read.
 *
 * @param state      {@code IDLE}, {@code LISTEN}, {@code CONNECT}, ... (cm_id_state_to_str)
 * @param portSpace  {@code TCP}, {@code UDP}, {@code IPoIB} (also for RDMA_PS_IB) or {@code ---} (cm_id_ps_to_str)
 * @param source     the bound address and port, if the id has one
 */
public record KernelCmId(String state, String portSpace, Optional<Endpoint> source)
{
    /** The port spaces a kernel listener of a peer is in, by the names the tool prints. */
    public enum PortSpace
    {
        /** RDMA_PS_TCP: rping, cmtime, ucmatose, rdma_server. */
        TCP,
        /** RDMA_PS_UDP: udaddy, mckey. */
        UDP
    }

    /** An address and port as printed: {@code 192.168.7.2:7174}, {@code :::7174} for IPv6's wildcard. */
    public record Endpoint(InetAddress address, int port)
    {
    }

    // each field is printed as " name value " (the first without the leading space); comm may hold spaces, so no split
    private static final Pattern STATE = Pattern.compile("(?:^| )state (\\S+)(?= |$)");
    private static final Pattern PORT_SPACE = Pattern.compile("(?:^| )ps (\\S+)(?= |$)");
    // the port follows the last colon: inet_ntop's IPv6 text has colons of its own; only an address's characters, so
    // that getByName never looks a name up
    private static final Pattern SOURCE = Pattern.compile("(?:^| )src-addr ([0-9A-Fa-f:.]+):(\\d+)(?= |$)");

    /** The line's id, or empty for a line that is not one (no state or port space: both are always printed). */
    public static Optional<KernelCmId> parse(final String line)
    {
        final Matcher state = STATE.matcher(line);
        final Matcher portSpace = PORT_SPACE.matcher(line);
        if (!state.find() || !portSpace.find())
        {
            return Optional.empty();
        }
        final Matcher source = SOURCE.matcher(line);
        return Optional.of(new KernelCmId(state.group(1), portSpace.group(1),
            source.find() ? Optional.of(new Endpoint(numeric(source.group(1), line), Integer.parseInt(source.group(2)))) : Optional.empty()));
    }

    /**
     * Whether this is a listener in {@code portSpace} bound to {@code port} and {@code address} (the wildcard
     * {@code 0.0.0.0} or {@code ::} for a peer that listens on every address).
     */
    public boolean isListener(final PortSpace portSpace, final InetAddress address, final int port)
    {
        return state.equals("LISTEN") && this.portSpace.equals(portSpace.name())
            && source.filter(bound -> bound.port() == port && bound.address().equals(address)).isPresent();
    }

    /** inet_ntop's text is numeric: getByName parses it without a lookup. */
    private static InetAddress numeric(final String text, final String line)
    {
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException ex)
        {
            throw new AssertionError("not an address in `" + line + "`: " + text, ex);
        }
    }
}

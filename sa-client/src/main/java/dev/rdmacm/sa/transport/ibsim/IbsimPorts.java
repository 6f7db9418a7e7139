package dev.rdmacm.sa.transport.ibsim;

import dev.rdmacm.sa.transport.MadTransportException;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The UDP ports an {@code ibsim -r -l P} needs: its ctl port P and one data port per client,
 * P+1..P+10 (ibsim takes at most 10 clients).
 */
public final class IbsimPorts
{
    public static final int PER_SIMULATOR = 12;

    private IbsimPorts()
    {
    }

    /** A P such that P..P+11 are free UDP ports right now (random, so parallel simulators rarely collide). */
    public static int freeRange()
    {
        for (int attempt = 0; attempt < 100; attempt++)
        {
            final int base = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            if (free(base))
            {
                return base;
            }
        }
        throw new MadTransportException("no range of " + PER_SIMULATOR + " free UDP ports found for ibsim");
    }

    /** Whether P..P+11 are free UDP ports right now. */
    public static boolean free(final int base)
    {
        for (int port = base; port < base + PER_SIMULATOR; port++)
        {
            try (DatagramSocket probe = new DatagramSocket(null))
            {
                probe.bind(new InetSocketAddress(port));
            }
            catch (final SocketException ex)
            {
                return false;
            }
        }
        return true;
    }
}

package dev.rdmacm.cli;

import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.verbs.PortAttributes;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The port MTUs of {@code rdmacm devices}, known only through libibverbs ({@code ibv_query_port}'s
 * {@code max_mtu} and {@code active_mtu}: sysfs has no file for them), so they stay out of the
 * source-neutral {@code RdmaPort}. On RoCE the active MTU follows the netdev's MTU, so this is where an
 * MTU change shows.
 */
final class PortMtus
{
    static final PortMtus NONE = new PortMtus();

    /** One port's MTUs in bytes; 0 for a code without a size. */
    record Mtu(int maxBytes, int activeBytes)
    {
        static Mtu of(final PortAttributes attributes)
        {
            return new Mtu(bytes(attributes.maxMtu()), bytes(attributes.activeMtu()));
        }

        private static int bytes(final int code)
        {
            return MtuCode.isValid(code) ? MtuCode.fromCode(code).bytes() : 0;
        }
    }

    private final Map<String, Mtu> byPort = new HashMap<>();

    void put(final String device, final int port, final Mtu mtu)
    {
        byPort.put(device + "/" + port, mtu);
    }

    Optional<Mtu> of(final String device, final int port)
    {
        return Optional.ofNullable(byPort.get(device + "/" + port));
    }
}

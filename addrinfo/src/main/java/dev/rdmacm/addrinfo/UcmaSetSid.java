package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.ServiceId;

/**
 * librdmacm's {@code ucma_set_sid}: the Service ID and mask of an AF_IB address made from a port space
 * and a port. Unlike {@link ServiceId#of}, it takes any {@code ai_port_space} value, known or not, as
 * librdmacm does: {@code sid = (ps << 16) + port}; the mask has the port-space bits when {@code ps != 0}
 * and the port bits when {@code port != 0}.
 */
final class UcmaSetSid
{
    private UcmaSetSid()
    {
    }

    static long sid(final int portSpace, final int port)
    {
        return ((long)portSpace << 16) + port;
    }

    static long mask(final int portSpace, final int port)
    {
        return (portSpace != 0 ? ServiceId.PS_MASK : 0) | (port != 0 ? ServiceId.PORT_MASK : 0);
    }
}

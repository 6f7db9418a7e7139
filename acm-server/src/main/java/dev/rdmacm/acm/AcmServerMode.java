package dev.rdmacm.acm;

/**
 * ibacm's {@code server_mode}. Our server always listens on its unix socket; {@code loop} and
 * {@code open} add the TCP listener (loopback only, or every address) and publish its port file.
 * ibacm serves the unix socket in unix mode only; serving both lets librdmacm (which prefers the
 * port file) and ib_acme's default unix path reach the same server.
 */
public enum AcmServerMode
{
    UNIX,
    LOOP,
    OPEN;

    /**
     * {@code unix}, {@code loop} or {@code open}, any case. ibacm takes anything else for unix; here it
     * is an error naming {@code where}, so a typo does not silently change who can reach the service.
     */
    public static AcmServerMode parse(final String value, final String where)
    {
        for (final AcmServerMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(value))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException(where + ": server_mode must be unix, loop or open, got '" + value + "'");
    }

    public boolean servesTcp()
    {
        return this != UNIX;
    }
}

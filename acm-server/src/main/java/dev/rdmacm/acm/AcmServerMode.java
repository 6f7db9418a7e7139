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

    /** Parses as ibacm does: {@code open} and {@code loop} (any case), anything else is unix. */
    public static AcmServerMode parse(final String value)
    {
        if ("open".equalsIgnoreCase(value))
        {
            return OPEN;
        }
        if ("loop".equalsIgnoreCase(value))
        {
            return LOOP;
        }
        return UNIX;
    }

    public boolean servesTcp()
    {
        return this != UNIX;
    }
}

package dev.rdmacm.umad;

/**
 * One agent registered on a {@link UmadPort}: the id the kernel gave it (0 to 31 per open file),
 * which every MAD it sends carries and every MAD it receives comes back with
 * ({@link UserMadHeader#agentId}). Closing it unregisters it; closing the port unregisters every
 * agent still registered.
 */
public final class UmadAgent implements AutoCloseable
{
    private final UmadPort port;
    private final int id;
    private final AgentRegistration registration;
    private volatile boolean registered = true;

    UmadAgent(final UmadPort port, final int id, final AgentRegistration registration)
    {
        this.port = port;
        this.id = id;
        this.registration = registration;
    }

    public int id()
    {
        return id;
    }

    public AgentRegistration registration()
    {
        return registration;
    }

    public UmadPort port()
    {
        return port;
    }

    public boolean isRegistered()
    {
        return registered;
    }

    void unregistered()
    {
        registered = false;
    }

    /**
     * Unregisters the agent ({@code IB_USER_MAD_UNREGISTER_AGENT}); MADs already queued for it stay
     * in the port's queue. Idempotent.
     *
     * @throws UmadException when the kernel refuses (the agent is gone all the same once the port closes).
     */
    @Override
    public void close()
    {
        port.unregister(this);
    }

    @Override
    public String toString()
    {
        return "umad agent " + id + " (" + registration.describe() + ") on " + port;
    }
}

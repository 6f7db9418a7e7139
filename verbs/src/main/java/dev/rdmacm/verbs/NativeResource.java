package dev.rdmacm.verbs;

/**
 * A libibverbs object with an explicit lifetime, tracked by the {@link ResourceRegistry} of the
 * context it was created on (see there for the closing order). Closing twice is harmless; when
 * destroying fails the resource stays open so that it can be closed again later.
 */
abstract class NativeResource implements AutoCloseable
{
    private final ResourceRegistry registry;
    private final String description;
    private boolean closed;

    NativeResource(final ResourceRegistry registry, final String description)
    {
        this.registry = registry;
        this.description = description;
    }

    /** Called once the native object exists; only then does the registry track it. */
    final void register()
    {
        registry.register(this);
    }

    /** Destroys the native object and releases the memory this resource owns. */
    abstract void destroy();

    /**
     * Destroys the resource once. Synchronized, so that a subclass's calls synchronized on the resource
     * (an RC QP's transitions, which a CM thread makes while the application may destroy the QP) never
     * run on a destroyed native object.
     */
    @Override
    public final synchronized void close()
    {
        if (closed)
        {
            return;
        }
        destroy();
        closed = true;
        registry.unregister(this);
    }

    public final synchronized boolean isClosed()
    {
        return closed;
    }

    final String deviceName()
    {
        return registry.deviceName();
    }

    /** @throws IllegalStateException naming the resource and the call when it or its context is closed. */
    final void requireOpen(final String call)
    {
        if (closed)
        {
            throw new IllegalStateException(call + ": " + this + " is closed");
        }
        registry.requireOpen(call);
    }

    @Override
    public String toString()
    {
        return description + (closed ? " (closed)" : "");
    }
}

package dev.rdmacm.verbs;

/**
 * A libibverbs object with an explicit lifetime, registered with the {@link VerbsContext} it was
 * created from.
 * <p>
 * The context keeps its open resources in creation order and closes whatever is still open in
 * reverse order before it closes the device, which is the order the kernel needs (QPs and AHs
 * before their PD and CQs, CQs before their completion channel, MRs before their PD). Closing twice
 * is harmless. When destroying fails (EBUSY: something still uses it) the resource stays open and
 * registered, so the context's close retries it after its dependents are gone.
 */
abstract class NativeResource implements AutoCloseable
{
    private final VerbsContext owner;
    private final String description;
    private boolean closed;

    NativeResource(final VerbsContext owner, final String description)
    {
        this.owner = owner;
        this.description = description;
    }

    /** Called once the native object exists; only then does the owner track it. */
    final void register()
    {
        owner.register(this);
    }

    /** Destroys the native object and releases the memory this resource owns. */
    abstract void destroy();

    @Override
    public final void close()
    {
        if (closed)
        {
            return;
        }
        destroy();
        closed = true;
        owner.unregister(this);
    }

    public final boolean isClosed()
    {
        return closed;
    }

    final VerbsContext owner()
    {
        return owner;
    }

    /** @throws IllegalStateException naming the resource and the call when it is closed. */
    final void requireOpen(final String call)
    {
        if (closed)
        {
            throw new IllegalStateException(call + ": " + description + " is closed");
        }
        owner.requireOpen(call);
    }

    @Override
    public String toString()
    {
        return description + (closed ? " (closed)" : "");
    }
}

package dev.rdmacm.verbs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The open resources of one device context, in creation order. Closing the registry closes whatever
 * is still open newest first, which is the order the kernel needs: QPs and AHs before their PD and
 * CQs, CQs before their completion channel, MRs before their PD. A resource whose destroy fails
 * (EBUSY) stays registered and is retried by {@link #closeAll()}, after its dependents are gone.
 * Resources of one context may be made and closed on different threads (a server accepting on one
 * and tearing down on another), so the list is guarded; it is never held while a resource closes.
 */
final class ResourceRegistry
{
    private final String deviceName;
    private final List<NativeResource> open = new ArrayList<>();
    private volatile boolean closed;

    ResourceRegistry(final String deviceName)
    {
        this.deviceName = deviceName;
    }

    String deviceName()
    {
        return deviceName;
    }

    synchronized void register(final NativeResource resource)
    {
        open.add(resource);
    }

    synchronized void unregister(final NativeResource resource)
    {
        open.remove(resource);
    }

    /** The resources still open, oldest first. */
    synchronized List<NativeResource> open()
    {
        return List.copyOf(open);
    }

    /** @throws IllegalStateException naming the call and the device when the context is closed. */
    void requireOpen(final String call)
    {
        if (closed)
        {
            throw new IllegalStateException(call + ": device " + deviceName + " is closed");
        }
    }

    boolean isClosed()
    {
        return closed;
    }

    /**
     * Closes every open resource, newest first, and marks the registry closed.
     *
     * @return the first failure with the others suppressed in it, or {@code null}.
     */
    VerbsException closeAll()
    {
        VerbsException failure = null;
        final List<NativeResource> newestFirst = new ArrayList<>(open());
        Collections.reverse(newestFirst);
        for (final NativeResource resource : newestFirst)
        {
            try
            {
                resource.close();
            }
            catch (final VerbsException ex)
            {
                failure = suppress(failure, ex);
            }
        }
        closed = true;
        return failure;
    }

    static VerbsException suppress(final VerbsException first, final VerbsException next)
    {
        if (first == null)
        {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}

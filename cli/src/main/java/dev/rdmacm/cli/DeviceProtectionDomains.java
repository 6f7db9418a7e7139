package dev.rdmacm.cli;

import dev.rdmacm.verbs.HeldDeviceList;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;

import java.util.HashMap;
import java.util.Map;

/**
 * librdmacm's device table for {@code rdma_create_qp(id, NULL, ...)}: per RDMA device one open context
 * and one PD, made the first time a device is wanted there ({@code ucma_get_device}'s PD), shared by every
 * QP on it, and closed, with everything still on them, when this closes. As librdmacm's, the devices are
 * listed once, when the table is made ({@code ucma_init}), and opened from that list; a device the list
 * does not have is looked for in a new listing ({@link Verbs#open}). Its calls are serialised, as
 * {@code ucma_get_device}'s under librdmacm's mutex: cmtime's client fills it from its event thread and
 * its steps' thread.
 */
final class DeviceProtectionDomains implements AutoCloseable
{
    private final HeldDeviceList listed = HeldDeviceList.now();
    private final Map<String, VerbsContext> contexts = new HashMap<>();
    private final Map<String, ProtectionDomain> pds = new HashMap<>();

    synchronized VerbsContext context(final String device)
    {
        VerbsContext context = contexts.get(device);
        if (context == null)
        {
            context = listed.openOrListAgain(device);
            contexts.put(device, context);
        }
        return context;
    }

    synchronized ProtectionDomain pd(final String device)
    {
        ProtectionDomain pd = pds.get(device);
        if (pd == null)
        {
            pd = context(device).allocateProtectionDomain();
            pds.put(device, pd);
        }
        return pd;
    }

    @Override
    public synchronized void close()
    {
        contexts.values().forEach(VerbsContext::close);
        contexts.clear();
        pds.clear();
        listed.close();
    }
}

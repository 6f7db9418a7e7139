package dev.rdmacm.cli;

import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;

import java.util.HashMap;
import java.util.Map;

/**
 * librdmacm's device table for {@code rdma_create_qp(id, NULL, ...)}: per RDMA device one open context
 * and one PD, made the first time a QP is wanted there ({@code ucma_get_device}'s PD), shared by every
 * QP on it, and closed, with everything still on them, when this closes. For one thread.
 */
final class DeviceProtectionDomains implements AutoCloseable
{
    private final Map<String, VerbsContext> contexts = new HashMap<>();
    private final Map<String, ProtectionDomain> pds = new HashMap<>();

    VerbsContext context(final String device)
    {
        return contexts.computeIfAbsent(device, Verbs::open);
    }

    ProtectionDomain pd(final String device)
    {
        return pds.computeIfAbsent(device, name -> context(name).allocateProtectionDomain());
    }

    @Override
    public void close()
    {
        contexts.values().forEach(VerbsContext::close);
        contexts.clear();
        pds.clear();
    }
}

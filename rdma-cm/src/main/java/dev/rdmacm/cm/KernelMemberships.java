package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.UcmaConstants;

/**
 * An id's multicast groups through the kernel's RDMA CM ({@link ConnectionManager#KERNEL}): one kernel id of the
 * id's port space, made at the first join and bound to the id's local address, so that the kernel finds the same
 * device and netdev ours did; one JOIN_MCAST per group; LEAVE_MCAST and DESTROY_ID as the groups and the id go.
 * <pre>
 *   our call                 what goes to the kernel                   what comes back
 *   rdma_join_multicast      (first) CREATE_ID, BIND; JOIN_MCAST        the membership's handle; later
 *                                                                      MULTICAST_JOIN or MULTICAST_ERROR with it
 *   rdma_leave_multicast     LEAVE_MCAST (after the QP's detach)        the group's queued events dropped
 *   rdma_destroy_id          LEAVE_MCAST for each group, DESTROY_ID
 * </pre>
 * The kernel numbers memberships apart from ids, so their events are found by the membership's handle
 * ({@link KernelCm#joined}), and the events of the kernel id itself (ADDR_CHANGE, DEVICE_REMOVAL) find no one:
 * the id hears those from this stack's own watch, as every id does. The bind takes port 0: a multicast id's
 * port carries nothing, and ours may be one a kernel id holds.
 */
final class KernelMemberships
{
    private static final System.Logger LOG = System.getLogger(KernelMemberships.class.getName());

    private final KernelCm kernel;
    private final IdContext c;
    private final int handle;

    private KernelMemberships(final KernelCm kernel, final IdContext c, final int handle)
    {
        this.kernel = kernel;
        this.c = c;
        this.handle = handle;
    }

    /**
     * CREATE_ID and BIND to the id's local address: its bound address, or its resolution's source.
     *
     * @throws RdmaCmException naming {@code call}, the command the kernel refused and the errno.
     */
    static KernelMemberships open(final IdContext c, final KernelCm kernel, final String call) throws RdmaCmException
    {
        final RdmaSockaddr local = c.ibSource != null ? c.ibSource :
            KernelConnection.sockaddr(c.resolution != null ? c.resolution.source() : c.boundSource, 0);
        final int handle;
        try
        {
            handle = kernel.answer(channel -> channel.createId(c.id.number(), c.portSpace.code(), UcmaConstants.IB_QPT_UD));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused(call, ex);
        }
        try
        {
            kernel.command(channel -> channel.bind(handle, local));
        }
        catch (final UcmaException ex)
        {
            kernel.destroyQuietly(handle);
            throw KernelCm.refused(call, ex);
        }
        return new KernelMemberships(kernel, c, handle);
    }

    /** The kernel id, as a trace names it. */
    int handle()
    {
        return handle;
    }

    /**
     * JOIN_MCAST of {@code mc}'s group with its flag; its events then find {@code mc}.
     *
     * @throws RdmaCmException the kernel's refusal, naming JOIN_MCAST and the errno.
     */
    void join(final IdMulticast mc) throws RdmaCmException
    {
        final RdmaSockaddr group = KernelConnection.sockaddr(mc.group, 0);
        final int flags = mc.flag.sendOnly() ? UcmaConstants.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER :
            UcmaConstants.RDMA_MC_JOIN_FLAG_FULLMEMBER;
        try
        {
            mc.kernelHandle = kernel.answer(channel -> channel.joinMulticast(handle, c.id.number(), group, flags));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused("rdma_join_multicast", ex);
        }
        kernel.joined(mc.kernelHandle, mc);
    }

    /** LEAVE_MCAST of {@code mc}'s membership, its failure only logged: the group is gone for the application either way. */
    void leave(final IdMulticast mc)
    {
        kernel.left(mc.kernelHandle);
        try
        {
            kernel.command(channel -> channel.leaveMulticast(mc.kernelHandle));
        }
        catch (final UcmaException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "the kernel's RDMA CM: " + ex.getMessage());
        }
    }

    /** DESTROY_ID of the kernel id, after every group was left. */
    void close()
    {
        kernel.destroyQuietly(handle);
    }
}

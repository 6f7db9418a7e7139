package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.cm.RdmaCmId;

import java.util.Objects;

/**
 * One field where the kernel's RDMA CM, driving an id's connection ({@link dev.rdmacm.cm.ConnectionManager#KERNEL}),
 * answered otherwise than this stack's resolution: the kernel's side read back with QUERY ADDR or QUERY PATH
 * after it resolved, this stack's from the id's own address resolution and route. Neither is chosen
 * silently: the connection goes on with what the kernel holds (it sends the CM MADs), and this record
 * says where the two differ.
 *
 * @param id      the id.
 * @param field   what differs, e.g. {@code device}, {@code port}, {@code path.sl}, {@code path.mtu}.
 * @param ours    this stack's value, as text.
 * @param kernels the kernel's value, as text.
 */
public record KernelDifference(RdmaCmId id, String field, String ours, String kernels)
{
    /**
     * Checks that every field is given.
     *
     * @param id      the id.
     * @param field   what differs.
     * @param ours    this stack's value.
     * @param kernels the kernel's value.
     */
    public KernelDifference
    {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(ours, "ours");
        Objects.requireNonNull(kernels, "kernels");
    }

    @Override
    public String toString()
    {
        return id + " " + field + ": ours " + ours + ", the kernel's " + kernels;
    }
}

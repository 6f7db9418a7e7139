package dev.rdmacm.resolver;

/** The type of a GID table entry, as sysfs {@code gid_attrs/types/N} names it. */
public enum GidType
{
    /** An InfiniBand port's GID (sysfs shows "IB/RoCE v1" for both IB and RoCE v1 entries). */
    IB,
    /** RoCE v1: GRH over Ethernet, not routable. */
    ROCE_V1,
    /** RoCE v2: UDP/IP encapsulation, routable; the kernel's preferred default. */
    ROCE_V2
}

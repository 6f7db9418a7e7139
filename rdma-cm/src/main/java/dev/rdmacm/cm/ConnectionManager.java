package dev.rdmacm.cm;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which connection manager drives an {@link RdmaCm}'s connections ({@link RdmaCm.Options#connectionManager()}).
 * Resolution is this stack's whichever runs them; the events an application sees are the same
 * {@link CmEvent}s.
 * <ul>
 * <li>{@link #USERSPACE}: this stack's CM, on each port's umad descriptor. It must own the port's CM class,
 *     which the kernel gives one agent per port: on a host where {@code ib_cm} is loaded, it cannot.</li>
 * <li>{@link #KERNEL}: the kernel's RDMA CM through {@code /dev/infiniband/rdma_cm} (module {@code rdma_ucm}),
 *     handed this stack's addresses and routes.</li>
 * <li>{@link #AUTO}: the userspace CM where it can own the port's CM class, the kernel's where the kernel's
 *     {@code ib_cm} holds it; decided at a port's first connect or listen, and traced.</li>
 * </ul>
 */
public enum ConnectionManager
{
    /** This stack's CM on the port's umad descriptor. */
    USERSPACE,
    /** The kernel's RDMA CM through {@code /dev/infiniband/rdma_cm}. */
    KERNEL,
    /** {@link #USERSPACE} where it can own the port's CM class, {@link #KERNEL} where {@code ib_cm} holds it. */
    AUTO;

    /** Where a loaded (or built-in) {@code ib_cm} shows itself; it registers the CM class on every port when it loads. */
    static final Path KERNEL_CM_MODULE = Path.of("/sys/module/ib_cm");

    /**
     * What {@link #AUTO} takes on this host, as far as the host shows it without opening a port: {@link #KERNEL}
     * when {@code ib_cm} is loaded (it holds every port's CM class from its load on), else {@link #USERSPACE}.
     * {@link RdmaCm} itself decides on each port by trying to own the class.
     *
     * @return {@link #KERNEL} or {@link #USERSPACE}.
     */
    public static ConnectionManager autoOnThisHost()
    {
        return Files.exists(KERNEL_CM_MODULE) ? KERNEL : USERSPACE;
    }

    /** {@return the option's text: {@code userspace}, {@code kernel} or {@code auto}} */
    public String text()
    {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

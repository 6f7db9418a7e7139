package dev.rdmacm.addrinfo;

/**
 * librdmacm's {@code ucma_init} fails every call but the all-null one with {@code ENODEV} when no RDMA
 * device exists. Our stack's devices are whatever fabric it runs on (verbs or ibsim), so the check is a
 * parameter; {@link #ASSUME_PRESENT} skips it, as name and service resolution needs no device.
 */
@FunctionalInterface
public interface LocalDevices
{
    LocalDevices ASSUME_PRESENT = () -> true;

    boolean anyPresent();
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** librdmacm's ucma_init order: the all-null EINVAL check comes before the device check (reference §1.2). */
class LocalDevicesTest
{
    private static final RdmaGetAddrInfo WITHOUT_DEVICES = RdmaGetAddrInfo.builder().devices(() -> false).build();

    @Test
    void shouldAnswerEinvalForAllNullBeforeLookingForDevices()
    {
        assertEquals(AddrInfoResult.ErrnoError.of(Errno.EINVAL), WITHOUT_DEVICES.getaddrinfo(null, null, null));
    }

    @Test
    void shouldAnswerEnodevForAnythingElseWithoutDevices()
    {
        assertEquals(new AddrInfoResult.ErrnoError(19, "ENODEV", "No such device"),
            WITHOUT_DEVICES.getaddrinfo("192.0.2.1", "7471", null));
    }
}

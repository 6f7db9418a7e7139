package dev.rdmacm.umad;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The lookup's refusals on a host; the lookup itself is checked against libibumad in the guest ({@code UmadInGuest}). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class UmadDeviceTest
{
    @Test
    void shouldSayThatIbUmadIsNotLoadedWhenItsSysfsClassIsMissing()
    {
        assumeFalse(Files.exists(UmadDevice.SYSFS_CLASS), "ib_umad is loaded on this host");

        final UmadException error = assertThrows(UmadException.class, () -> UmadDevice.find("rxe0", 1));
        assertEquals(Errno.ENODEV, error.errno());
        assertEquals("/sys/class/infiniband_mad/abi_version does not exist: the ib_umad module is not loaded (modprobe ib_umad)",
            error.getMessage());
    }

    @Test
    void shouldRefuseADeviceNameThatIsAPath()
    {
        assertEquals("RDMA device name '../rxe0': must be a non-empty sysfs name",
            assertThrows(IllegalArgumentException.class, () -> UmadDevice.find("../rxe0", 1)).getMessage());
    }

    @Test
    void shouldRefusePortZero()
    {
        assertEquals("port 0 of rxe0: ports are numbered from 1",
            assertThrows(IllegalArgumentException.class, () -> UmadDevice.find("rxe0", 0)).getMessage());
    }
}

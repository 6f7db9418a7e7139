package dev.rdmacm.verbs;

import java.util.List;
import java.util.Optional;

/**
 * What {@link Verbs#listDevices()} found: the devices, or, when there are none, exactly why (the
 * library is missing, native access is denied, or libibverbs found no device).
 *
 * @param devices   the devices libibverbs lists, possibly none.
 * @param whyNone   why the list is empty; empty when there are devices.
 */
public record DeviceListing(List<DeviceInfo> devices, Optional<String> whyNone)
{
    public DeviceListing
    {
        devices = List.copyOf(devices);
    }

    static DeviceListing none(final String why)
    {
        return new DeviceListing(List.of(), Optional.of(why));
    }

    public boolean isEmpty()
    {
        return devices.isEmpty();
    }
}

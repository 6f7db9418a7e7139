package dev.rdmacm.verbs;

/**
 * A device as {@code ibv_get_device_list} lists it.
 *
 * @param name     the kernel's device name ({@code ibv_get_device_name}).
 * @param nodeGuid the node GUID ({@code ibv_get_device_guid}, the 8 bytes read big-endian).
 * @param nodeType the node type of the {@code ibv_device}.
 */
public record DeviceInfo(String name, long nodeGuid, NodeType nodeType)
{
}

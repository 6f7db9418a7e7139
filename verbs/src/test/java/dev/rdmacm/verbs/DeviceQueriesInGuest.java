package dev.rdmacm.verbs;

import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.IbvDevinfo.guid;
import static dev.rdmacm.verbs.IbvDevinfo.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): the device list and
 * {@code ibv_query_device} compared with what the real {@code ibv_devinfo -v} prints for the same
 * devices, every field {@link DeviceAttributes} carries.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class DeviceQueriesInGuest
{
    private static IbvDevinfo devinfo;

    @BeforeAll
    static void runIbvDevinfo()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        devinfo = IbvDevinfo.run();
    }

    @Test
    void shouldListTheDevicesIbvDevinfoLists()
    {
        assertEquals(devinfo.devices().stream().map(IbvDevinfo.Device::name).sorted().toList(),
            Verbs.listDevices().devices().stream().map(DeviceInfo::name).sorted().toList());
    }

    @Test
    void shouldListEachDeviceWithTheNodeGuidIbvDevinfoPrints()
    {
        for (final DeviceInfo device : Verbs.listDevices().devices())
        {
            assertEquals(guid(devinfo.device(device.name()).field("node_guid")), device.nodeGuid(), device.name());
        }
    }

    @Test
    void shouldListEachDeviceWithTheNodeTypeSysfsShows()
    {
        for (final DeviceInfo device : Verbs.listDevices().devices())
        {
            final String sysfs = new SysfsPort(device.name(), SoftRoceGuest.PORT).deviceFile("node_type");

            assertEquals(sysfs, device.nodeType().value() + ": " + device.nodeType().text(), device.name());
        }
    }

    @Test
    void shouldQueryEveryDeviceAttributeAsIbvDevinfoPrintsIt()
    {
        for (final DeviceInfo device : Verbs.listDevices().devices())
        {
            try (VerbsContext context = Verbs.open(device.name()))
            {
                assertEquals(printed(devinfo.device(device.name())), queried(context.queryDevice()), device.name());
            }
        }
    }

    @Test
    void shouldQueryTheNodeGuidThatListingReports()
    {
        for (final DeviceInfo device : Verbs.listDevices().devices())
        {
            try (VerbsContext context = Verbs.open(device.name()))
            {
                assertEquals(device.nodeGuid(), context.queryDevice().nodeGuid(), device.name());
            }
        }
    }

    /** The fields of {@link DeviceAttributes} as ibv_devinfo prints them, numbers normalised to decimal. */
    private static Map<String, String> printed(final IbvDevinfo.Device device)
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("fw_ver", device.field("fw_ver"));
        fields.put("node_guid", Long.toUnsignedString(guid(device.field("node_guid"))));
        fields.put("sys_image_guid", Long.toUnsignedString(guid(device.field("sys_image_guid"))));
        for (final String key : List.of("vendor_id", "vendor_part_id", "hw_ver", "max_qp", "max_qp_wr", "max_sge", "max_cq", "max_cqe",
            "max_mr", "max_mr_size", "max_pd", "max_ah", "max_pkeys", "local_ca_ack_delay", "phys_port_cnt"))
        {
            fields.put(key, Long.toUnsignedString(number(device.field(key))));
        }
        return fields;
    }

    private static Map<String, String> queried(final DeviceAttributes attributes)
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("fw_ver", attributes.firmwareVersion());
        fields.put("node_guid", Long.toUnsignedString(attributes.nodeGuid()));
        fields.put("sys_image_guid", Long.toUnsignedString(attributes.sysImageGuid()));
        fields.put("vendor_id", Long.toUnsignedString(attributes.vendorId()));
        fields.put("vendor_part_id", Long.toUnsignedString(attributes.vendorPartId()));
        fields.put("hw_ver", Long.toUnsignedString(attributes.hardwareVersion()));
        fields.put("max_qp", Integer.toUnsignedString(attributes.maxQp()));
        fields.put("max_qp_wr", Integer.toUnsignedString(attributes.maxQpWr()));
        fields.put("max_sge", Integer.toUnsignedString(attributes.maxSge()));
        fields.put("max_cq", Integer.toUnsignedString(attributes.maxCq()));
        fields.put("max_cqe", Integer.toUnsignedString(attributes.maxCqe()));
        fields.put("max_mr", Integer.toUnsignedString(attributes.maxMr()));
        fields.put("max_mr_size", Long.toUnsignedString(attributes.maxMrSize()));
        fields.put("max_pd", Integer.toUnsignedString(attributes.maxPd()));
        fields.put("max_ah", Integer.toUnsignedString(attributes.maxAh()));
        fields.put("max_pkeys", Integer.toUnsignedString(attributes.maxPkeys()));
        fields.put("local_ca_ack_delay", Integer.toUnsignedString(attributes.localCaAckDelay()));
        fields.put("phys_port_cnt", Integer.toUnsignedString(attributes.physPortCount()));
        return fields;
    }
}

package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ServiceRecordTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ServiceRecord.LENGTH]);
    private final ServiceRecord record = new ServiceRecord();

    @Test
    void shouldMatchOpenSmServiceRecordLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_service_record_t)", ServiceRecord.LENGTH),
            entry("offsetof(ib_service_record_t, service_id)", ServiceRecord.SERVICE_ID_OFFSET),
            entry("offsetof(ib_service_record_t, service_gid)", ServiceRecord.SERVICE_GID_OFFSET),
            entry("offsetof(ib_service_record_t, service_pkey)", ServiceRecord.SERVICE_P_KEY_OFFSET),
            entry("offsetof(ib_service_record_t, resv)", ServiceRecord.RESERVED_OFFSET),
            entry("offsetof(ib_service_record_t, service_lease)", ServiceRecord.SERVICE_LEASE_OFFSET),
            entry("offsetof(ib_service_record_t, service_key)", ServiceRecord.SERVICE_KEY_OFFSET),
            entry("sizeof(((ib_service_record_t *)0)->service_key)", ServiceRecord.SERVICE_KEY_LENGTH),
            entry("offsetof(ib_service_record_t, service_name)", ServiceRecord.SERVICE_NAME_OFFSET),
            entry("sizeof(ib_svc_name_t)", ServiceRecord.SERVICE_NAME_LENGTH),
            entry("offsetof(ib_service_record_t, service_data8)", ServiceRecord.SERVICE_DATA8_OFFSET),
            entry("offsetof(ib_service_record_t, service_data16)", ServiceRecord.SERVICE_DATA16_OFFSET),
            entry("offsetof(ib_service_record_t, service_data32)", ServiceRecord.SERVICE_DATA32_OFFSET),
            entry("offsetof(ib_service_record_t, service_data64)", ServiceRecord.SERVICE_DATA64_OFFSET),
            entry("sizeof(ib_service_record_t) - offsetof(ib_service_record_t, service_data8)",
                ServiceRecord.SERVICE_DATA_LENGTH)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, """
              ib_service_record_t s;
              memset(&s, 0, sizeof(s));
              s.service_id = cl_hton64(0x0000000001064853ULL);
              s.service_gid.unicast.prefix = cl_hton64(0xfe80000000000000ULL);
              s.service_gid.unicast.interface_id = cl_hton64(0x0000000000100004ULL);
              s.service_pkey = cl_hton16(0xffff);
              s.service_lease = cl_hton32(0xffffffff);
              uint64_t key[2] = { cl_hton64(0x0102030405060708ULL), cl_hton64(0x090a0b0c0d0e0f10ULL) };
              memcpy(s.service_key, key, 16);
              strcpy((char *)s.service_name, "rdmacm-java perftest");
              s.service_data8[0] = 0xa5;
              s.service_data8[15] = 0x5a;
              s.service_data16[3] = cl_hton16(0xbeef);
              s.service_data32[2] = cl_hton32(0xdeadbeef);
              s.service_data64[1] = cl_hton64(0x1122334455667788ULL);
            """, "s", CHeaders.OPENSM_FLAGS);

        record.wrap(buffer, 0).clear().serviceId(0x0000_0000_0106_4853L).serviceGid(Gid.parse("fe80::10:4"))
            .servicePKey(0xffff).serviceLease(ServiceRecord.INFINITE_LEASE)
            .serviceKey(0x0102_0304_0506_0708L, 0x090a_0b0c_0d0e_0f10L).serviceName("rdmacm-java perftest")
            .serviceData8(0, 0xa5).serviceData8(15, 0x5a).serviceData16(3, 0xbeef).serviceData32(2, 0xdead_beefL)
            .serviceData64(1, 0x1122_3344_5566_7788L);

        assertEquals(fromC, CHeaders.hex(buffer, 0, ServiceRecord.LENGTH));
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        record.wrap(buffer, 0).clear().serviceId(-1L).serviceGid(-1L, -1L).servicePKey(0xffff)
            .serviceLease(0xffff_ffffL).serviceKey(-1L, -1L).serviceName("x".repeat(64))
            .serviceData8(15, 0xff).serviceData16(7, 0xffff).serviceData32(3, 0xffff_ffffL).serviceData64(1, -1L);

        record.wrap(buffer, 0, ServiceRecord.LENGTH);
        assertEquals(-1L, record.serviceId());
        assertEquals(-1L, record.serviceGidPrefix());
        assertEquals(-1L, record.serviceGidInterfaceId());
        assertEquals(0xffff, record.servicePKey());
        assertEquals(0xffff_ffffL, record.serviceLease());
        assertEquals(-1L, record.serviceKeyHigh());
        assertEquals(-1L, record.serviceKeyLow());
        assertEquals("x".repeat(64), record.serviceName());
        assertEquals(0xff, record.serviceData8(15));
        assertEquals(0xffff, record.serviceData16(7));
        assertEquals(0xffff_ffffL, record.serviceData32(3));
        assertEquals(-1L, record.serviceData64(1));
    }

    @Test
    void shouldPrintTheFieldNamesWiresharkUses()
    {
        record.wrap(buffer, 0).clear().serviceId(0x1064853L).serviceGid(Gid.parse("fe80::10:4")).servicePKey(0xffff)
            .serviceLease(3600).serviceName("ib_acme");

        assertEquals("ServiceRecord{ServiceID=0x0000000001064853, ServiceGID=fe80::10:4, ServiceP_Key=0xffff, " +
            "ServiceLease=3600 s, ServiceKey=00000000000000000000000000000000, ServiceName=\"ib_acme\", " +
            "ServiceData=" + "00".repeat(64) + "}", record.toString());
    }

    @Test
    void shouldRejectANameLongerThan64BytesOfUtf8()
    {
        record.wrap(buffer, 0).clear();

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> record.serviceName("é".repeat(33)));

        assertEquals("ServiceName '" + "é".repeat(33) + "' is 66 bytes of UTF-8, the field holds 64", ex.getMessage());
    }

    @Test
    void shouldRefuseADataIndexOutsideItsArray()
    {
        record.wrap(buffer, 0).clear();

        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class,
            () -> record.serviceData32(4));

        assertEquals("ServiceData32 index 4 is not 0-3", ex.getMessage());
    }

    @Test
    void shouldRejectAShortRecord()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 175));

        assertEquals("ServiceRecord: 175 bytes present, the format needs at least 176", ex.getMessage());
    }
}

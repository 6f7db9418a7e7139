package dev.rdmacm.sa.service;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.ServiceRecord;
import dev.rdmacm.sa.RecordCheck;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaRequest;
import dev.rdmacm.sa.SaResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ServiceRecord registration, lookup by name or ID, and deletion (SubnAdmSet, GetTable, Delete).
 * <p>
 * A ServiceRecord is 176 bytes, so its request is 232 bytes: under umad2sim OpenSM receives only 224
 * of them and ServiceData64[1] arrives damaged. The fields here (ID, GID, P_Key, lease, name) are all
 * within the first 168 bytes.
 */
public final class ServiceRecords
{
    /** ServiceRecord component mask bits (IBA 15.2.5.14, table 197). */
    public static final long SERVICE_ID = 1L << 0;
    public static final long SERVICE_GID = 1L << 1;
    public static final long SERVICE_P_KEY = 1L << 2;
    public static final long SERVICE_LEASE = 1L << 4;
    public static final long SERVICE_NAME = 1L << 6;

    private static final long IDENTITY = SERVICE_ID | SERVICE_GID | SERVICE_P_KEY | SERVICE_NAME;

    private ServiceRecords()
    {
    }

    /** Registers {@code record}; the future holds the record as the SA stored it. */
    public static CompletableFuture<ServiceRecordValue> register(
        final SaClient client, final ServiceRecordValue record, final Duration timeout)
    {
        final SaRequest set = SaRequest.set(SaAttribute.SERVICE_RECORD)
            .description("ServiceRecord Set '" + record.serviceName() + "'")
            .componentMask(IDENTITY | SERVICE_LEASE).payload(record.encode()).recordLength(ServiceRecord.LENGTH).build();
        return client.query(set, timeout).thenApply(response -> decode(response).get(0));
    }

    public static CompletableFuture<List<ServiceRecordValue>> byName(
        final SaClient client, final String name, final Duration timeout)
    {
        final ServiceRecordValue template = new ServiceRecordValue(0, Gid.ZERO, 0, 0, name);
        final RecordCheck check = (buffer, offset, length) ->
            length >= ServiceRecord.LENGTH && new ServiceRecord().wrap(buffer, offset, length).serviceName().equals(name);
        return table(client, "ServiceRecord GetTable name '" + name + "'", SERVICE_NAME, template, check, timeout);
    }

    public static CompletableFuture<List<ServiceRecordValue>> byId(
        final SaClient client, final long serviceId, final Duration timeout)
    {
        final ServiceRecordValue template = new ServiceRecordValue(serviceId, Gid.ZERO, 0, 0, "");
        final RecordCheck check = (buffer, offset, length) ->
            length >= ServiceRecord.LENGTH && new ServiceRecord().wrap(buffer, offset, length).serviceId() == serviceId;
        return table(client, String.format("ServiceRecord GetTable id 0x%016x", serviceId), SERVICE_ID, template, check, timeout);
    }

    /** Deletes the record with {@code record}'s ID, GID, P_Key and name; the future holds what was deleted. */
    public static CompletableFuture<ServiceRecordValue> delete(
        final SaClient client, final ServiceRecordValue record, final Duration timeout)
    {
        final SaRequest delete = SaRequest.delete(SaAttribute.SERVICE_RECORD)
            .description("ServiceRecord Delete '" + record.serviceName() + "'")
            .componentMask(IDENTITY).payload(record.encode()).recordLength(ServiceRecord.LENGTH).build();
        return client.query(delete, timeout).thenApply(response -> decode(response).get(0));
    }

    private static CompletableFuture<List<ServiceRecordValue>> table(final SaClient client, final String description,
        final long mask, final ServiceRecordValue template, final RecordCheck check, final Duration timeout)
    {
        final SaRequest request = SaRequest.getTable(SaAttribute.SERVICE_RECORD).description(description)
            .componentMask(mask).payload(template.encode()).recordLength(ServiceRecord.LENGTH).check(check).build();
        return client.query(request, timeout).thenApply(ServiceRecords::decode);
    }

    private static List<ServiceRecordValue> decode(final SaResponse response)
    {
        final List<ServiceRecordValue> records = new ArrayList<>();
        for (final byte[] record : response.records())
        {
            records.add(ServiceRecordValue.decode(record));
        }
        return List.copyOf(records);
    }
}

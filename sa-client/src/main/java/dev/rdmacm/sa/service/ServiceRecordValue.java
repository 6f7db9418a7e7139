package dev.rdmacm.sa.service;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.ServiceRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The identifying fields of a ServiceRecord (IBA 15.2.5.14): ID, GID, P_Key, lease (seconds,
 * {@link ServiceRecord#INFINITE_LEASE} for ever) and name. The ServiceData arrays are left zero.
 */
public record ServiceRecordValue(long serviceId, Gid serviceGid, int servicePKey, long serviceLease, String serviceName)
{
    public static ServiceRecordValue decode(final byte[] record)
    {
        final ServiceRecord sr = new ServiceRecord().wrap(new UnsafeBuffer(record), 0, record.length);
        return new ServiceRecordValue(sr.serviceId(), sr.serviceGid(), sr.servicePKey(), sr.serviceLease(), sr.serviceName());
    }

    public byte[] encode()
    {
        final byte[] bytes = new byte[ServiceRecord.LENGTH];
        new ServiceRecord().wrap(new UnsafeBuffer(bytes), 0).clear().serviceId(serviceId).serviceGid(serviceGid)
            .servicePKey(servicePKey).serviceLease(serviceLease).serviceName(serviceName);
        return bytes;
    }
}

package dev.rdmacm.addrinfo;

/** The {@code enum rdma_cm_event_type} values of the asynchronous getaddrinfo (upstream librdmacm v60+). */
public enum AddrInfoEventType
{
    ADDRINFO_RESOLVED(16),
    ADDRINFO_ERROR(17);

    private final int value;

    AddrInfoEventType(final int value)
    {
        this.value = value;
    }

    public int value()
    {
        return value;
    }
}

package dev.rdmacm.ucma.abi;

import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct rdma_ucm_event_resp}, one event as GET_EVENT hands it out: the
 * {@code uid} given when the id (or membership) was made or accepted, the kernel's handle, the event
 * ({@code enum rdma_cm_event_type}), its status (0, a negative errno, or for REJECTED the positive CM
 * reject reason) and its parameter: {@link ConnParam} for an RC id, {@link UdParam} for a UD one. Host
 * byte order. The parameter union starts at 20, so it is 4-aligned only and holds no 8-byte field.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              uid                              |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |                   event (RDMA_CM_EVENT_*)                     | 12
 *  +---------------------------------------------------------------+
 *  |                     status (signed)                           | 16
 *  +---------------------------------------------------------------+
 *  |  param: conn (272 bytes) or ud (304 bytes: the union's size)  | 20
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                           reserved                            | 324
 *  +---------------------------------------------------------------+
 *  |                ece.vendor_id (5.8+; 0: no ECE)                | 328
 *  +---------------------------------------------------------------+
 *  |                         ece.attr_mod                          | 332
 *  +---------------------------------------------------------------+
 * </pre>
 * The kernel copies at most the buffer's room (the header's {@code out}, 324 or more); kernels before
 * 5.8 write 328 bytes, so a response zeroed before the write reads {@code ece} 0 from them.
 */
public final class EventResponse extends UcmaStruct<EventResponse>
{
    public static final int UID_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int EVENT_OFFSET = 12;
    public static final int STATUS_OFFSET = 16;
    public static final int PARAM_OFFSET = 20;
    /** {@code sizeof} the param union: its larger member, {@link UdParam}. */
    public static final int PARAM_LENGTH = UdParam.LENGTH;
    public static final int RESERVED_OFFSET = PARAM_OFFSET + PARAM_LENGTH;
    public static final int ECE_VENDOR_ID_OFFSET = RESERVED_OFFSET + 4;
    public static final int ECE_ATTR_MOD_OFFSET = ECE_VENDOR_ID_OFFSET + 4;
    public static final int LENGTH = ECE_ATTR_MOD_OFFSET + 4;
    /** The least room GET_EVENT takes ({@code ENOSPC} below it): the struct up to its reserved word. */
    public static final int MIN_LENGTH = RESERVED_OFFSET;

    private final ConnParam conn = new ConnParam();
    private final UdParam ud = new UdParam();

    public EventResponse()
    {
        super("rdma_ucm_event_resp", LENGTH);
    }

    @Override
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
        conn.wrap(buffer, offset + PARAM_OFFSET, ConnParam.LENGTH);
        ud.wrap(buffer, offset + PARAM_OFFSET, UdParam.LENGTH);
    }

    public long uid()
    {
        return hostU64(UID_OFFSET);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    /** The {@code RDMA_CM_EVENT_*} number; {@link UcmaEventType#of} names it. */
    public int event()
    {
        return (int)hostU32(EVENT_OFFSET);
    }

    /** 0, a negative errno, or REJECTED's positive reject reason: the {@code __u32} read as signed, as librdmacm does. */
    public int status()
    {
        return (int)hostU32(STATUS_OFFSET);
    }

    /** The parameter of an RC id's event. */
    public ConnParam conn()
    {
        return conn;
    }

    /** The parameter of a UD id's event. */
    public UdParam ud()
    {
        return ud;
    }

    public long eceVendorId()
    {
        return hostU32(ECE_VENDOR_ID_OFFSET);
    }

    public long eceAttrMod()
    {
        return hostU32(ECE_ATTR_MOD_OFFSET);
    }
}

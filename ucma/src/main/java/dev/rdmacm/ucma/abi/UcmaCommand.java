package dev.rdmacm.ucma.abi;

/**
 * The commands of {@code /dev/infiniband/rdma_cm} ({@code RDMA_USER_CM_CMD_*}, numbered in this order
 * from 0), each with the size of its input struct and where that struct holds the address of the
 * response buffer. A command is one {@code write(2)} of the 8-byte {@link CommandHeader} and the input
 * struct; the kernel writes the response (at most the header's {@code out} bytes) before the write
 * returns.
 * <pre>
 *   write(2) buffer   0            8                              8 + inLength
 *                     +------------+------------------------------+
 *                     | cmd_hdr    | command struct               |
 *                     | cmd in out | ... response (u64 pointer) ..|----> response buffer (out bytes)
 *                     +------------+------------------------------+
 * </pre>
 * LEAVE_MCAST reuses DESTROY_ID's struct, its {@code id} the membership's handle. BIND_IP, RESOLVE_IP and QUERY_ROUTE are the pre-AF_IB
 * forms, which every kernel since 3.11 answers through BIND, RESOLVE_ADDR and QUERY instead.
 */
public enum UcmaCommand
{
    CREATE_ID(UcmCreateId.LENGTH, UcmCreateId.RESPONSE_OFFSET, IdResponse.LENGTH),
    DESTROY_ID(UcmDestroyId.LENGTH, UcmDestroyId.RESPONSE_OFFSET, EventsReportedResponse.LENGTH),
    BIND_IP(40, Constants.NONE, 0),
    RESOLVE_IP(UcmResolveIp.LENGTH, Constants.NONE, 0),
    RESOLVE_ROUTE(UcmResolveRoute.LENGTH, Constants.NONE, 0),
    QUERY_ROUTE(UcmQuery.LENGTH, UcmQuery.RESPONSE_OFFSET, 208),
    CONNECT(UcmConnect.LENGTH, Constants.NONE, 0),
    LISTEN(UcmListen.LENGTH, Constants.NONE, 0),
    ACCEPT(UcmAccept.LENGTH, Constants.NONE, 0),
    REJECT(UcmReject.LENGTH, Constants.NONE, 0),
    DISCONNECT(UcmDisconnect.LENGTH, Constants.NONE, 0),
    INIT_QP_ATTR(UcmInitQpAttr.LENGTH, UcmInitQpAttr.RESPONSE_OFFSET, UverbsQpAttr.LENGTH),
    GET_EVENT(UcmGetEvent.LENGTH, UcmGetEvent.RESPONSE_OFFSET, EventResponse.LENGTH),
    /** No handler in any kernel: always ENOSYS. */
    GET_OPTION(0, Constants.NONE, 0),
    SET_OPTION(UcmSetOption.LENGTH, Constants.NONE, 0),
    NOTIFY(UcmNotify.LENGTH, Constants.NONE, 0),
    JOIN_IP_MCAST(UcmJoinIpMcast.LENGTH, UcmJoinIpMcast.RESPONSE_OFFSET, IdResponse.LENGTH),
    LEAVE_MCAST(UcmDestroyId.LENGTH, UcmDestroyId.RESPONSE_OFFSET, EventsReportedResponse.LENGTH),
    MIGRATE_ID(UcmMigrateId.LENGTH, UcmMigrateId.RESPONSE_OFFSET, EventsReportedResponse.LENGTH),
    /** The response is {@link QueryAddrResponse} (ADDR, GID) or {@link QueryPathResponse} (PATH), by option. */
    QUERY(UcmQuery.LENGTH, UcmQuery.RESPONSE_OFFSET, QueryAddrResponse.LENGTH),
    BIND(UcmBind.LENGTH, Constants.NONE, 0),
    RESOLVE_ADDR(UcmResolveAddr.LENGTH, Constants.NONE, 0),
    JOIN_MCAST(UcmJoinMcast.LENGTH, UcmJoinMcast.RESPONSE_OFFSET, IdResponse.LENGTH);

    private static final UcmaCommand[] BY_NUMBER = values();

    private final int inLength;
    private final int responseOffset;
    private final int responseLength;
    private final String cName;

    UcmaCommand(final int inLength, final int responseOffset, final int responseLength)
    {
        this.inLength = inLength;
        this.responseOffset = responseOffset;
        this.responseLength = responseLength;
        this.cName = "RDMA_USER_CM_CMD_" + name();
    }

    /** The number the header's {@code cmd} carries. */
    public int number()
    {
        return ordinal();
    }

    /** {@code sizeof} the input struct: the header's {@code in}. */
    public int inLength()
    {
        return inLength;
    }

    /** Whether the input struct carries a response pointer. */
    public boolean hasResponse()
    {
        return responseOffset != Constants.NONE;
    }

    /** The offset of the {@code response} pointer inside the input struct; only when {@link #hasResponse()}. */
    public int responseOffset()
    {
        return responseOffset;
    }

    /** The size of the whole response (the newest kernel's), what the header's {@code out} gives by default. */
    public int responseLength()
    {
        return responseLength;
    }

    /** {@code RDMA_USER_CM_CMD_...}, as errors name it. */
    public String cName()
    {
        return cName;
    }

    /**
     * The command numbered {@code number}.
     *
     * @throws IllegalArgumentException for a number no kernel of this ABI knows.
     */
    public static UcmaCommand of(final int number)
    {
        if (number < 0 || number >= BY_NUMBER.length)
        {
            throw new IllegalArgumentException("ucma command " + number + ": the ABI numbers them 0.." + (BY_NUMBER.length - 1));
        }
        return BY_NUMBER[number];
    }

    /** An enum's constructor cannot read its own class's static constants; these live here. */
    private static final class Constants
    {
        static final int NONE = -1;
    }
}

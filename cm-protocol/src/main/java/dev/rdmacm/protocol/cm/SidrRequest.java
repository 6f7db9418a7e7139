package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM SIDR_REQ message (IBA 12.11.1, Table 119; AttributeID 0x0017): resolve a
 * Service ID to a UD QPN and Q_Key. Big-endian, offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                           RequestID                           |   0
 *  +-------------------------------+-------------------------------+
 *  |         PartitionKey          |           Reserved            |   4
 *  +-------------------------------+-------------------------------+
 *  |                        ServiceID (8 bytes)                    |   8
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (216 bytes)                    |  16
 *  +---------------------------------------------------------------+
 * </pre>
 * RDMA CM puts an {@link IpCmPrivateDataHeader} at the start of the private data for UDP port space
 * IDs. tshark does not decode SIDR_REQ; {@link #toString()} follows its {@code cm.*} naming.
 */
public final class SidrRequest extends CmMessage<SidrRequest>
{
    public static final int REQUEST_ID_OFFSET = 0;
    public static final int PARTITION_KEY_OFFSET = 4;
    public static final int SERVICE_ID_OFFSET = 8;
    public static final int PRIVATE_DATA_OFFSET = 16;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public SidrRequest()
    {
        super(CmAttribute.SIDR_REQ, PRIVATE_DATA_OFFSET);
    }

    public long requestId()
    {
        return getUnsignedInt(REQUEST_ID_OFFSET);
    }

    public SidrRequest requestId(final long value)
    {
        putUnsignedInt(REQUEST_ID_OFFSET, value, "requestid");
        return this;
    }

    /** The P_Key, full-member bit included. */
    public int partitionKey()
    {
        return getUnsignedShort(PARTITION_KEY_OFFSET);
    }

    public SidrRequest partitionKey(final int value)
    {
        putUnsignedShort(PARTITION_KEY_OFFSET, value, "pkey");
        return this;
    }

    public long serviceId()
    {
        return getLong(SERVICE_ID_OFFSET);
    }

    public SidrRequest serviceId(final long value)
    {
        putLong(SERVICE_ID_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return "SIDR_REQ{requestid=0x" + Long.toHexString(requestId()) +
            ", pkey=0x" + String.format("%04x", partitionKey()) +
            ", serviceid=0x" + String.format("%016x", serviceId()) +
            ", private=" + privateDataText() + "}";
    }
}

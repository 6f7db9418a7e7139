package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;
import dev.rdmacm.protocol.mad.RmppHeader;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over a whole 256-byte SA MAD (IBA 15.2.1.1): common header, RMPP header, the SA class
 * header and 200 bytes of attribute data, big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |               MAD common header (24 bytes, MadHeader)         |  0
 *  +---------------------------------------------------------------+
 *  |                 RMPP header (12 bytes, RmppHeader)            | 24
 *  +---------------------------------------------------------------+
 *  |                            SM_Key                             | 36
 *  |                                                               |
 *  +-------------------------------+-------------------------------+
 *  |        AttributeOffset        |           Reserved            | 44
 *  +-------------------------------+-------------------------------+
 *  |                         ComponentMask                         | 48
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  SubnetAdminData (200 bytes)                  | 56
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 * </pre>
 * AttributeOffset is the distance between records of a GetTable response, in 8-byte words.
 */
public final class SaMad extends Flyweight
{
    public static final int SM_KEY_OFFSET = 36;
    public static final int ATTRIBUTE_OFFSET_OFFSET = 44;
    public static final int RESERVED_OFFSET = 46;
    public static final int COMPONENT_MASK_OFFSET = 48;
    public static final int DATA_OFFSET = 56;
    public static final int DATA_LENGTH = 200;
    public static final int LENGTH = MadHeader.MAD_SIZE;
    /** The SA class version this stack speaks (IBA 1.1 and later). */
    public static final short CLASS_VERSION = 2;
    /** AttributeOffset counts 8-byte words. */
    public static final int ATTRIBUTE_OFFSET_UNIT = 8;

    private final MadHeader header = new MadHeader();
    private final RmppHeader rmpp = new RmppHeader();

    /** Wraps a received MAD, checking that all 256 bytes are present. */
    public SaMad wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("SA MAD", buffer, offset, length, LENGTH);
        header.wrap(buffer, offset, length);
        rmpp.wrap(buffer, offset, length);
        return this;
    }

    public SaMad wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        header.wrap(buffer, offset);
        rmpp.wrap(buffer, offset);
        return this;
    }

    /**
     * Zeroes the MAD and writes a request header: base version 1, class SubnAdm, class version 2, the
     * method, TID and attribute ID. The RMPP header stays zero, as the SA expects of a request.
     */
    public SaMad initRequest(final int method, final long transactionId, final int attributeId)
    {
        zero(0, LENGTH);
        header.baseVersion(MadHeader.BASE_VERSION).mgmtClass(ManagementClass.SUBN_ADM).classVersion(CLASS_VERSION)
            .method(method).transactionId(transactionId).attributeId(attributeId);
        return this;
    }

    /** The common header, over the same bytes. */
    public MadHeader header()
    {
        return header;
    }

    /** The RMPP header, over the same bytes. */
    public RmppHeader rmpp()
    {
        return rmpp;
    }

    public long smKey()
    {
        return u64(SM_KEY_OFFSET);
    }

    public SaMad smKey(final long value)
    {
        putU64(SM_KEY_OFFSET, value);
        return this;
    }

    /** The record stride in 8-byte words, as the SA writes it in GetTable responses. */
    public int attributeOffset()
    {
        return u16(ATTRIBUTE_OFFSET_OFFSET);
    }

    public SaMad attributeOffset(final int words)
    {
        putU16(ATTRIBUTE_OFFSET_OFFSET, words);
        putU16(RESERVED_OFFSET, 0);
        return this;
    }

    /** The record stride in bytes. */
    public int attributeOffsetBytes()
    {
        return attributeOffset() * ATTRIBUTE_OFFSET_UNIT;
    }

    public long componentMask()
    {
        return u64(COMPONENT_MASK_OFFSET);
    }

    public SaMad componentMask(final long value)
    {
        putU64(COMPONENT_MASK_OFFSET, value);
        return this;
    }

    /** Where the attribute data starts in the buffer, for wrapping a record flyweight. */
    public int dataOffset()
    {
        return offset + DATA_OFFSET;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "SaMad{unwrapped}";
        }
        final int attributeId = header.attributeId();
        final String mask = attributeId == SaAttribute.PATH_RECORD ?
            " (" + PathRecordComponentMask.names(componentMask()) + ")" : "";
        return String.format(
            "SA{Method=%s, Status=%s, TransactionID=0x%016x, AttributeID=%s, AttributeModifier=0x%08x, %s, " +
            "SM_Key=0x%016x, AttributeOffset=%d, ComponentMask=0x%016x%s}",
            MadMethod.name(header.method()), SaStatus.describe(header.status()), header.transactionId(),
            SaAttribute.name(attributeId), header.attributeModifier(), rmpp, smKey(), attributeOffset(),
            componentMask(), mask);
    }
}

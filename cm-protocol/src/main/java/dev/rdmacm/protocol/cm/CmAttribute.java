package dev.rdmacm.protocol.cm;

/**
 * The attribute IDs of the CM class (IBA 12.6.1, umad_cm.h {@code UMAD_CM_ATTR_*}): the MAD header's
 * AttributeID names which message follows it.
 */
public enum CmAttribute
{
    CLASS_PORT_INFO(0x0001, "ClassPortInfo"),
    REQ(0x0010, "REQ"),
    MRA(0x0011, "MRA"),
    REJ(0x0012, "REJ"),
    REP(0x0013, "REP"),
    RTU(0x0014, "RTU"),
    DREQ(0x0015, "DREQ"),
    DREP(0x0016, "DREP"),
    SIDR_REQ(0x0017, "SIDR_REQ"),
    SIDR_REP(0x0018, "SIDR_REP"),
    LAP(0x0019, "LAP"),
    APR(0x001A, "APR");

    private static final CmAttribute[] BY_LOW_ID = new CmAttribute[0x20];

    static
    {
        for (final CmAttribute attribute : values())
        {
            BY_LOW_ID[attribute.id] = attribute;
        }
    }

    private final int id;
    private final String wireName;

    CmAttribute(final int id, final String wireName)
    {
        this.id = id;
        this.wireName = wireName;
    }

    /** The AttributeID as it appears in the MAD header. */
    public int id()
    {
        return id;
    }

    /** The name IBA chapter 12 and tshark give the message, e.g. {@code SIDR_REQ}. */
    public String wireName()
    {
        return wireName;
    }

    /** The attribute with this ID, or {@code null} when the CM class defines none. */
    public static CmAttribute fromId(final int id)
    {
        return id >= 0 && id < BY_LOW_ID.length ? BY_LOW_ID[id] : null;
    }
}

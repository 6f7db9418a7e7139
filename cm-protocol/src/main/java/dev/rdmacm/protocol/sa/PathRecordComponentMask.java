package dev.rdmacm.protocol.sa;

/**
 * The PathRecord component-mask bits (IBA 15.2.5.16, Table 209; {@code IB_PR_COMPMASK_*} in OpenSM's
 * {@code ib_types.h}): bit n selects the n-th field of the record in a query. The ServiceID has two bits
 * because it spans two former reserved 32-bit words; a query for a ServiceID sets both.
 */
public final class PathRecordComponentMask
{
    public static final long SERVICE_ID_MSB = 1L << 0;
    public static final long SERVICE_ID_LSB = 1L << 1;
    public static final long SERVICE_ID = SERVICE_ID_MSB | SERVICE_ID_LSB;
    public static final long DGID = 1L << 2;
    public static final long SGID = 1L << 3;
    public static final long DLID = 1L << 4;
    public static final long SLID = 1L << 5;
    public static final long RAW_TRAFFIC = 1L << 6;
    public static final long RESERVED_7 = 1L << 7;
    public static final long FLOW_LABEL = 1L << 8;
    public static final long HOP_LIMIT = 1L << 9;
    public static final long TCLASS = 1L << 10;
    public static final long REVERSIBLE = 1L << 11;
    public static final long NUMB_PATH = 1L << 12;
    public static final long P_KEY = 1L << 13;
    public static final long QOS_CLASS = 1L << 14;
    public static final long SL = 1L << 15;
    public static final long MTU_SELECTOR = 1L << 16;
    public static final long MTU = 1L << 17;
    public static final long RATE_SELECTOR = 1L << 18;
    public static final long RATE = 1L << 19;
    public static final long PACKET_LIFE_TIME_SELECTOR = 1L << 20;
    public static final long PACKET_LIFE_TIME = 1L << 21;
    public static final long PREFERENCE = 1L << 22;

    private static final String[] NAMES = {
        "ServiceID_MSB", "ServiceID_LSB", "DGID", "SGID", "DLID", "SLID", "RawTraffic", "Reserved7",
        "FlowLabel", "HopLimit", "TClass", "Reversible", "NumbPath", "P_Key", "QoSClass", "SL",
        "MTUSelector", "MTU", "RateSelector", "Rate", "PacketLifeTimeSelector", "PacketLifeTime", "Preference",
    };

    private PathRecordComponentMask()
    {
    }

    /** The names of the set bits joined with {@code |}, e.g. {@code DGID|SGID|NumbPath}; {@code 0} for none. */
    public static String names(final long mask)
    {
        if (mask == 0)
        {
            return "0";
        }
        final StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < 64; bit++)
        {
            if ((mask & (1L << bit)) != 0)
            {
                if (!text.isEmpty())
                {
                    text.append('|');
                }
                text.append(bit < NAMES.length ? NAMES[bit] : "bit" + bit);
            }
        }
        return text.toString();
    }
}

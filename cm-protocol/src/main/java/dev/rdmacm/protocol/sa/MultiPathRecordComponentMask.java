package dev.rdmacm.protocol.sa;

/**
 * The MultiPathRecord component-mask bits (IBA 15.2.5.20; {@code IB_MPR_COMPMASK_*} in OpenSM's
 * {@code ib_types.h}). The ServiceID is split on the wire, and so is its mask.
 */
public final class MultiPathRecordComponentMask
{
    public static final long RAW_TRAFFIC = 1L << 0;
    public static final long RESERVED_1 = 1L << 1;
    public static final long FLOW_LABEL = 1L << 2;
    public static final long HOP_LIMIT = 1L << 3;
    public static final long TCLASS = 1L << 4;
    public static final long REVERSIBLE = 1L << 5;
    public static final long NUMB_PATH = 1L << 6;
    public static final long P_KEY = 1L << 7;
    public static final long QOS_CLASS = 1L << 8;
    public static final long SL = 1L << 9;
    public static final long MTU_SELECTOR = 1L << 10;
    public static final long MTU = 1L << 11;
    public static final long RATE_SELECTOR = 1L << 12;
    public static final long RATE = 1L << 13;
    public static final long PACKET_LIFE_TIME_SELECTOR = 1L << 14;
    public static final long PACKET_LIFE_TIME = 1L << 15;
    public static final long SERVICE_ID_8MSB = 1L << 16;
    public static final long INDEPENDENCE_SELECTOR = 1L << 17;
    public static final long RESERVED_18 = 1L << 18;
    public static final long SGID_COUNT = 1L << 19;
    public static final long DGID_COUNT = 1L << 20;
    public static final long SERVICE_ID_56LSB = 1L << 21;
    public static final long SERVICE_ID = SERVICE_ID_8MSB | SERVICE_ID_56LSB;

    private MultiPathRecordComponentMask()
    {
    }
}

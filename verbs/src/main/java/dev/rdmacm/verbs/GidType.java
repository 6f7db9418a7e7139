package dev.rdmacm.verbs;

/**
 * The type of a GID table entry ({@code enum ibv_gid_type} in {@code verbs.h}): an InfiniBand GID,
 * a RoCE v1 GID (Ethernet link layer, GRH in an Ethernet frame) or a RoCE v2 GID (UDP/IP
 * encapsulation, port 4791).
 */
public enum GidType implements AbiEnum
{
    IB(0, "IB"),
    ROCE_V1(1, "RoCE v1"),
    ROCE_V2(2, "RoCE v2");

    private final int value;
    private final String text;

    GidType(final int value, final String text)
    {
        this.value = value;
        this.text = text;
    }

    /** The {@code IBV_GID_TYPE_*} value. */
    @Override
    public int value()
    {
        return value;
    }

    /** The name {@code ibv_devinfo -v} and this project's CLI print. */
    @Override
    public String text()
    {
        return text;
    }

    /**
     * The type for an {@code IBV_GID_TYPE_*} value.
     *
     * @throws IllegalArgumentException naming the value when libibverbs reports one this binding
     *                                  does not know.
     */
    public static GidType ofValue(final int value)
    {
        final GidType type = AbiEnum.ofValue(GidType.class, value);
        if (type == null)
        {
            throw new IllegalArgumentException("gid_type " + value + " is not IBV_GID_TYPE_IB (0), ROCE_V1 (1) or ROCE_V2 (2)");
        }
        return type;
    }
}

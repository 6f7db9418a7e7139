package dev.rdmacm.verbs;

/**
 * The logical state of a port ({@code enum ibv_port_state}, and the number before the colon in
 * sysfs {@code ports/N/state}, e.g. {@code 4: ACTIVE}).
 */
public enum PortState implements AbiEnum
{
    NOP(0, "NOP"),
    DOWN(1, "DOWN"),
    INIT(2, "INIT"),
    ARMED(3, "ARMED"),
    ACTIVE(4, "ACTIVE"),
    ACTIVE_DEFER(5, "ACTIVE_DEFER");

    private final int value;
    private final String text;

    PortState(final int value, final String text)
    {
        this.value = value;
        this.text = text;
    }

    @Override
    public int value()
    {
        return value;
    }

    /** The name the kernel prints after the number in sysfs. */
    @Override
    public String text()
    {
        return text;
    }

    /** The state for an {@code IBV_PORT_*} value, or {@code null} when it is not one. */
    public static PortState ofValue(final int value)
    {
        return AbiEnum.ofValue(PortState.class, value);
    }
}

package dev.rdmacm.verbs;

/**
 * The physical state of a port (IBA PortPhysicalState; sysfs {@code ports/N/phys_state}, e.g.
 * {@code 5: LinkUp}).
 */
public enum PhysicalPortState implements AbiEnum
{
    NO_STATE_CHANGE(0, "<unknown>"),
    SLEEP(1, "Sleep"),
    POLLING(2, "Polling"),
    DISABLED(3, "Disabled"),
    PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"),
    LINK_UP(5, "LinkUp"),
    LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"),
    PHY_TEST(7, "Phy Test");

    private final int value;
    private final String text;

    PhysicalPortState(final int value, final String text)
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

    /** The state for a PortPhysicalState value, or {@code null} when it is not one. */
    public static PhysicalPortState ofValue(final int value)
    {
        return AbiEnum.ofValue(PhysicalPortState.class, value);
    }
}

package dev.rdmacm.verbs;

import java.util.Objects;

/**
 * The link layer of a port ({@code IBV_LINK_LAYER_*}, and the text of sysfs {@code ports/N/link_layer}).
 */
public enum LinkLayer implements AbiEnum
{
    UNSPECIFIED(0, "Unknown"),
    INFINIBAND(1, "InfiniBand"),
    ETHERNET(2, "Ethernet");

    private final int value;
    private final String text;

    LinkLayer(final int value, final String text)
    {
        this.value = value;
        this.text = text;
    }

    @Override
    public int value()
    {
        return value;
    }

    /** The text the kernel writes in sysfs. */
    @Override
    public String text()
    {
        return text;
    }

    /** The link layer for an {@code IBV_LINK_LAYER_*} value; an unknown value is UNSPECIFIED. */
    public static LinkLayer ofValue(final int value)
    {
        return Objects.requireNonNullElse(AbiEnum.ofValue(LinkLayer.class, value), UNSPECIFIED);
    }

    /** The link layer for the sysfs text, or {@code null} when it is none of them. */
    public static LinkLayer ofText(final String text)
    {
        return AbiEnum.ofText(LinkLayer.class, text);
    }
}

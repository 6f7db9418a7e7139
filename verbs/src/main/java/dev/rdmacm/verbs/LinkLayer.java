package dev.rdmacm.verbs;

/**
 * The link layer of a port ({@code IBV_LINK_LAYER_*}, and the text of sysfs {@code ports/N/link_layer}).
 */
public enum LinkLayer
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

    public int value()
    {
        return value;
    }

    /** The text the kernel writes in sysfs. */
    public String text()
    {
        return text;
    }

    /** The link layer for an {@code IBV_LINK_LAYER_*} value; an unknown value is UNSPECIFIED. */
    public static LinkLayer ofValue(final int value)
    {
        for (final LinkLayer layer : values())
        {
            if (layer.value == value)
            {
                return layer;
            }
        }
        return UNSPECIFIED;
    }

    /** The link layer for the sysfs text, or {@code null} when it is none of them. */
    public static LinkLayer ofText(final String text)
    {
        for (final LinkLayer layer : values())
        {
            if (layer.text.equals(text))
            {
                return layer;
            }
        }
        return null;
    }
}

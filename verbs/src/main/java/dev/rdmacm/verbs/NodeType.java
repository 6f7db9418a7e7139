package dev.rdmacm.verbs;

import java.util.Objects;

/**
 * What kind of node a device is ({@code enum ibv_node_type}, and sysfs {@code node_type}, e.g.
 * {@code 1: CA}).
 */
public enum NodeType implements AbiEnum
{
    CA(1, "CA"),
    SWITCH(2, "switch"),
    ROUTER(3, "router"),
    RNIC(4, "RNIC"),
    USNIC(5, "usNIC"),
    USNIC_UDP(6, "usNIC UDP"),
    UNSPECIFIED(7, "unspecified");

    private final int value;
    private final String text;

    NodeType(final int value, final String text)
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

    /** The node type for an {@code IBV_NODE_*} value; an unknown value is UNSPECIFIED. */
    public static NodeType ofValue(final int value)
    {
        return Objects.requireNonNullElse(AbiEnum.ofValue(NodeType.class, value), UNSPECIFIED);
    }
}

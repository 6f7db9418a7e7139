package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.protocol.cm.CmAttribute;

import java.util.Objects;

/**
 * Fault injection for CM experiments, which librdmacm has no way to do: asked for every CM MAD a port's
 * CM is about to send or has just received, it lets the MAD through or drops it, as a lossy fabric
 * would. A dropped MAD is gone for the engine: a dropped send still counts as sent (its retries run),
 * a dropped receive was never seen. What no real peer does on demand (lose one DREP, every REJ) is
 * made so, against a real peer otherwise unchanged. Set it with {@link dev.rdmacm.cm.RdmaCm#cmMadFilter}, at any time;
 * it runs on the ports' CM threads and must not block.
 */
@FunctionalInterface
public interface CmMadFilter
{
    /** Which way a MAD goes. */
    enum Direction
    {
        /** A MAD this CM sends. */
        SENT,
        /** A MAD the port received for this CM. */
        RECEIVED
    }

    /**
     * Whether a CM MAD goes on: the filter's verdict, asked on the port's thread for every MAD.
     *
     * @param direction whether the MAD is sent or received.
     * @param attribute the MAD's CM message, or {@code null} for an AttributeID the CM class lacks.
     * @return true to let it through.
     */
    boolean pass(Direction direction, CmAttribute attribute);

    /** {@return a filter that lets every MAD through: the default} */
    static CmMadFilter none()
    {
        return (direction, attribute) -> true;
    }

    /**
     * Drops every {@code attribute} MAD going {@code direction}, e.g. every DREP received.
     *
     * @param direction which way the MADs to drop go.
     * @param attribute the CM message to drop.
     * @return the filter.
     */
    static CmMadFilter dropping(final Direction direction, final CmAttribute attribute)
    {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(attribute, "attribute");
        return (way, message) -> way != direction || message != attribute;
    }
}

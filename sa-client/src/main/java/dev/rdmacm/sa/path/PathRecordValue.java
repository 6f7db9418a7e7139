package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.sa.PathRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Objects;

/**
 * Every field of one PathRecord (IBA 15.2.5.16) as the SA sent it, immutable, for callers, the cache
 * and printing. The selector/code pairs are kept as sent: {@code mtu} is the 6-bit MTU code
 * (4 = 2048), {@code rate} the rate code, {@code packetLifeTime} the exponent. LIDs and the P_Key are
 * their value types, widened unsigned from the 16-bit fields.
 */
public record PathRecordValue(
    long serviceId,
    Gid dgid,
    Gid sgid,
    Lid dlid,
    Lid slid,
    boolean rawTraffic,
    int flowLabel,
    int hopLimit,
    int tClass,
    boolean reversible,
    int numbPath,
    PKey pKey,
    int qosClass,
    int sl,
    int mtuSelector,
    int mtu,
    int rateSelector,
    int rate,
    int packetLifeTimeSelector,
    int packetLifeTime,
    int preference)
{
    /**
     * @throws IllegalArgumentException naming the field when a value does not fit its bits, since the
     *                                  record's flyweights would cut it into a different value.
     */
    public PathRecordValue
    {
        Objects.requireNonNull(dgid, "dgid");
        Objects.requireNonNull(sgid, "sgid");
        Objects.requireNonNull(dlid, "dlid");
        Objects.requireNonNull(slid, "slid");
        Objects.requireNonNull(pKey, "pKey");
        requireBits("flowLabel", flowLabel, 20);
        requireBits("hopLimit", hopLimit, 8);
        requireBits("tClass", tClass, 8);
        requireBits("numbPath", numbPath, 7);
        requireBits("qosClass", qosClass, 12);
        requireBits("sl", sl, 4);
        requireBits("mtuSelector", mtuSelector, 2);
        requireBits("mtu", mtu, 6);
        requireBits("rateSelector", rateSelector, 2);
        requireBits("rate", rate, 6);
        requireBits("packetLifeTimeSelector", packetLifeTimeSelector, 2);
        requireBits("packetLifeTime", packetLifeTime, 6);
        requireBits("preference", preference, 8);
    }

    /**
     * Every component, as a record's own equals compares them. Written out because the record's is a chain of
     * method handles that the C1-only JVMs of the CLI and the guests do not inline: 1.9 us a call on the host,
     * about ten times that in a TCG guest, where the kernel CM's back-end compares our path with the kernel's for
     * every connection (issue 32).
     */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PathRecordValue o && serviceId == o.serviceId && dgid.equals(o.dgid) &&
            sgid.equals(o.sgid) && dlid.equals(o.dlid) && slid.equals(o.slid) && rawTraffic == o.rawTraffic &&
            flowLabel == o.flowLabel && hopLimit == o.hopLimit && tClass == o.tClass && reversible == o.reversible &&
            numbPath == o.numbPath && pKey.equals(o.pKey) && qosClass == o.qosClass && sl == o.sl &&
            mtuSelector == o.mtuSelector && mtu == o.mtu && rateSelector == o.rateSelector && rate == o.rate &&
            packetLifeTimeSelector == o.packetLifeTimeSelector && packetLifeTime == o.packetLifeTime &&
            preference == o.preference;
    }

    /** Of every component, to agree with {@link #equals}. */
    @Override
    public int hashCode()
    {
        int h = Long.hashCode(serviceId);
        h = 31 * h + dgid.hashCode();
        h = 31 * h + sgid.hashCode();
        h = 31 * h + dlid.hashCode();
        h = 31 * h + slid.hashCode();
        h = 31 * h + Boolean.hashCode(rawTraffic);
        h = 31 * h + flowLabel;
        h = 31 * h + hopLimit;
        h = 31 * h + tClass;
        h = 31 * h + Boolean.hashCode(reversible);
        h = 31 * h + numbPath;
        h = 31 * h + pKey.hashCode();
        h = 31 * h + qosClass;
        h = 31 * h + sl;
        h = 31 * h + mtuSelector;
        h = 31 * h + mtu;
        h = 31 * h + rateSelector;
        h = 31 * h + rate;
        h = 31 * h + packetLifeTimeSelector;
        h = 31 * h + packetLifeTime;
        return 31 * h + preference;
    }

    /** Decodes the 64 bytes of a PathRecord. */
    public static PathRecordValue decode(final byte[] record)
    {
        final PathRecord pr = new PathRecord().wrap(new UnsafeBuffer(record), 0, record.length);
        return new PathRecordValue(
            pr.serviceId(), pr.dgid(), pr.sgid(), Lid.of(pr.dlid()), Lid.of(pr.slid()), pr.rawTraffic(), pr.flowLabel(), pr.hopLimit(),
            pr.tClass(), pr.reversible(), pr.numbPath(), PKey.of(pr.pKey()), pr.qosClass(), pr.sl(), pr.mtuSelector(), pr.mtu(),
            pr.rateSelector(), pr.rate(), pr.packetLifeTimeSelector(), pr.packetLifeTime(), pr.preference());
    }

    private static void requireBits(final String field, final int value, final int bits)
    {
        if (value < 0 || value >= 1 << bits)
        {
            throw new IllegalArgumentException("PathRecord " + field + " " + value + " does not fit its " + bits +
                " bits (0-" + ((1 << bits) - 1) + ")");
        }
    }
}

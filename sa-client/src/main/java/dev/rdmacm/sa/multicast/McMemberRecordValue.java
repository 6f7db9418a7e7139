package dev.rdmacm.sa.multicast;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.McMemberRecord;
import dev.rdmacm.protocol.sa.Selector;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Every field of an MCMemberRecord (IBA 15.2.5.17) as values: what a port asks to join or leave with, and
 * what the SA answers (the group's Q_Key, MLID, MTU, rate, SL...). Selectors and codes are the raw 2-bit
 * and 6-bit values; {@code joinState} is a set of {@link McMemberRecord.JoinState} bits.
 */
public record McMemberRecordValue(Gid mgid, Gid portGid, long qkey, int mlid, int mtuSelector, int mtu, int tClass,
    int pKey, int rateSelector, int rate, int packetLifeTimeSelector, int packetLifeTime, int sl, int flowLabel,
    int hopLimit, int scope, int joinState)
{
    public McMemberRecordValue
    {
        if (qkey < 0 || qkey > 0xffff_ffffL || mlid < 0 || mlid > 0xffff || pKey < 0 || pKey > 0xffff || tClass < 0 ||
            tClass > 0xff || sl < 0 || sl > 0xf || flowLabel < 0 || flowLabel > 0xf_ffff || hopLimit < 0 || hopLimit > 0xff ||
            scope < 0 || scope > 0xf || joinState < 0 || joinState > 0xf)
        {
            throw new IllegalArgumentException("MCMemberRecord field out of range: Q_Key 0x" + Long.toHexString(qkey) +
                ", MLID 0x" + Integer.toHexString(mlid) + ", P_Key 0x" + Integer.toHexString(pKey) + ", TClass " + tClass +
                ", SL " + sl + ", FlowLabel 0x" + Integer.toHexString(flowLabel) + ", HopLimit " + hopLimit + ", Scope " +
                scope + ", JoinState 0x" + Integer.toHexString(joinState));
        }
    }

    /** A record with only the group and the port: the rest zero, for a leave or a query. */
    public static McMemberRecordValue of(final Gid mgid, final Gid portGid, final int joinState)
    {
        return new McMemberRecordValue(mgid, portGid, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, joinState);
    }

    public static McMemberRecordValue decode(final byte[] record)
    {
        final McMemberRecord r = new McMemberRecord().wrap(new UnsafeBuffer(record), 0, record.length);
        return new McMemberRecordValue(r.mgid(), r.portGid(), r.qkey(), r.mlid(), r.mtuSelector(), r.mtu(), r.tClass(),
            r.pKey(), r.rateSelector(), r.rate(), r.packetLifeTimeSelector(), r.packetLifeTime(), r.sl(), r.flowLabel(),
            r.hopLimit(), r.scope(), r.joinState());
    }

    public byte[] encode()
    {
        final byte[] bytes = new byte[McMemberRecord.LENGTH];
        new McMemberRecord().wrap(new UnsafeBuffer(bytes), 0).clear().mgid(mgid).portGid(portGid).qkey(qkey).mlid(mlid)
            .mtuSelector(Selector.fromCode(mtuSelector)).mtu(mtu).tClass(tClass).pKey(pKey)
            .rateSelector(Selector.fromCode(rateSelector)).rate(rate)
            .packetLifeTimeSelector(Selector.fromCode(packetLifeTimeSelector)).packetLifeTime(packetLifeTime)
            .sl(sl).flowLabel(flowLabel).hopLimit(hopLimit).scope(scope).joinState(joinState);
        return bytes;
    }

    public McMemberRecordValue withMgid(final Gid value)
    {
        return new McMemberRecordValue(value, portGid, qkey, mlid, mtuSelector, mtu, tClass, pKey, rateSelector, rate,
            packetLifeTimeSelector, packetLifeTime, sl, flowLabel, hopLimit, scope, joinState);
    }

    public McMemberRecordValue withPortGid(final Gid value)
    {
        return new McMemberRecordValue(mgid, value, qkey, mlid, mtuSelector, mtu, tClass, pKey, rateSelector, rate,
            packetLifeTimeSelector, packetLifeTime, sl, flowLabel, hopLimit, scope, joinState);
    }

    public McMemberRecordValue withQkey(final long value)
    {
        return new McMemberRecordValue(mgid, portGid, value, mlid, mtuSelector, mtu, tClass, pKey, rateSelector, rate,
            packetLifeTimeSelector, packetLifeTime, sl, flowLabel, hopLimit, scope, joinState);
    }

    public McMemberRecordValue withPKey(final int value)
    {
        return new McMemberRecordValue(mgid, portGid, qkey, mlid, mtuSelector, mtu, tClass, value, rateSelector, rate,
            packetLifeTimeSelector, packetLifeTime, sl, flowLabel, hopLimit, scope, joinState);
    }

    public McMemberRecordValue withJoinState(final int bits)
    {
        return new McMemberRecordValue(mgid, portGid, qkey, mlid, mtuSelector, mtu, tClass, pKey, rateSelector, rate,
            packetLifeTimeSelector, packetLifeTime, sl, flowLabel, hopLimit, scope, bits);
    }

    @Override
    public String toString()
    {
        return "MCMemberRecord{MGID=" + mgid + ", PortGID=" + portGid + ", Q_Key=0x" + Long.toHexString(qkey) + ", MLID=0x" +
            Integer.toHexString(mlid) + ", P_Key=0x" + Integer.toHexString(pKey) + ", SL=" + sl + ", JoinState=0x" +
            Integer.toHexString(joinState) + "}";
    }
}

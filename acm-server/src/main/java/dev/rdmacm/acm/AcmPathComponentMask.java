package dev.rdmacm.acm;

import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.PathRecordLayout;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * ibacm's {@code acm_path_comp_mask}: the PathRecord component mask of an SA query whose template is
 * an {@code ibv_path_record}, one bit for every field that is not zero. ibacm sends the template's
 * bytes as the query's record, so a field the client left at zero is a wildcard and every other one
 * a constraint; a client's QUERY_SA ({@code ib_acme -v}) therefore asks the SA to confirm the MTU,
 * rate and packet lifetime it was given, not only the endpoints. Two consequences of the rule, kept:
 * NumbPath is never masked (a Get returns one record anyway), and the 20-bit flow label is tested on
 * the 24 bits above the hop limit, so the RawTraffic bit alone masks FlowLabel.
 */
final class AcmPathComponentMask
{
    private AcmPathComponentMask()
    {
    }

    static long of(final DirectBuffer path, final int offset)
    {
        long mask = 0;
        mask |= path.getLong(offset + PathRecordLayout.SERVICE_ID_OFFSET) != 0 ? PathRecordComponentMask.SERVICE_ID : 0;
        mask |= nonZero(path, offset + PathRecordLayout.DGID_OFFSET, 16) ? PathRecordComponentMask.DGID : 0;
        mask |= nonZero(path, offset + PathRecordLayout.SGID_OFFSET, 16) ? PathRecordComponentMask.SGID : 0;
        mask |= path.getShort(offset + PathRecordLayout.DLID_OFFSET) != 0 ? PathRecordComponentMask.DLID : 0;
        mask |= path.getShort(offset + PathRecordLayout.SLID_OFFSET) != 0 ? PathRecordComponentMask.SLID : 0;
        final int flowHop = path.getInt(offset + PathRecordLayout.FLOW_LABEL_HOP_LIMIT_OFFSET, ByteOrder.BIG_ENDIAN);
        mask |= (flowHop >>> 8) != 0 ? PathRecordComponentMask.FLOW_LABEL : 0;
        mask |= (flowHop & 0xff) != 0 ? PathRecordComponentMask.HOP_LIMIT : 0;
        mask |= path.getByte(offset + PathRecordLayout.TCLASS_OFFSET) != 0 ? PathRecordComponentMask.TCLASS : 0;
        mask |= (path.getByte(offset + PathRecordLayout.REVERSIBLE_NUMB_PATH_OFFSET) & 0x80) != 0 ?
            PathRecordComponentMask.REVERSIBLE : 0;
        mask |= path.getShort(offset + PathRecordLayout.P_KEY_OFFSET) != 0 ? PathRecordComponentMask.P_KEY : 0;
        final int qosSl = path.getShort(offset + PathRecordLayout.QOS_CLASS_SL_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
        mask |= (qosSl >>> 4) != 0 ? PathRecordComponentMask.QOS_CLASS : 0;
        mask |= (qosSl & 0xf) != 0 ? PathRecordComponentMask.SL : 0;
        mask |= selectorAndValue(path.getByte(offset + PathRecordLayout.MTU_OFFSET),
            PathRecordComponentMask.MTU_SELECTOR, PathRecordComponentMask.MTU);
        mask |= selectorAndValue(path.getByte(offset + PathRecordLayout.RATE_OFFSET),
            PathRecordComponentMask.RATE_SELECTOR, PathRecordComponentMask.RATE);
        mask |= selectorAndValue(path.getByte(offset + PathRecordLayout.PACKET_LIFE_TIME_OFFSET),
            PathRecordComponentMask.PACKET_LIFE_TIME_SELECTOR, PathRecordComponentMask.PACKET_LIFE_TIME);
        return mask;
    }

    private static long selectorAndValue(final byte field, final long selectorBit, final long valueBit)
    {
        return ((field & 0xc0) != 0 ? selectorBit : 0) | ((field & 0x3f) != 0 ? valueBit : 0);
    }

    private static boolean nonZero(final DirectBuffer buffer, final int offset, final int length)
    {
        for (int i = 0; i < length; i += 8)
        {
            if (buffer.getLong(offset + i) != 0)
            {
                return true;
            }
        }
        return false;
    }
}

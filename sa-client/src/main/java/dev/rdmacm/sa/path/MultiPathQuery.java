package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MultiPathRecord;
import dev.rdmacm.protocol.sa.MultiPathRecordComponentMask;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.RecordCheck;
import dev.rdmacm.sa.SaRequest;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A MultiPathRecord GetMulti (IBA 15.2.5.20): paths between any of {@code sgids} and any of
 * {@code dgids}, answered with PathRecords. Sent as one RMPP DATA segment, so the GIDs must fit in one
 * MAD that umad2sim delivers whole: at most {@link #MAX_GIDS} of them.
 */
public record MultiPathQuery(List<Gid> sgids, List<Gid> dgids, int numbPath, boolean reversible)
{
    /** (224 - 56 - 24) / 16: what a 224-byte request (umad2sim's limit) holds. */
    public static final int MAX_GIDS = (SaRequest.MAX_PAYLOAD - MultiPathRecord.HEADER_LENGTH) / MultiPathRecord.GID_LENGTH;

    public MultiPathQuery
    {
        sgids = List.copyOf(sgids);
        dgids = List.copyOf(dgids);
        if (sgids.isEmpty() || dgids.isEmpty())
        {
            throw new IllegalArgumentException("a MultiPathRecord query needs at least one SGID and one DGID");
        }
        if (sgids.size() + dgids.size() > MAX_GIDS)
        {
            throw new IllegalArgumentException(
                (sgids.size() + dgids.size()) + " GIDs in a MultiPathRecord query: at most " + MAX_GIDS + " fit in one request");
        }
        if (numbPath < 1 || numbPath > 127)
        {
            throw new IllegalArgumentException("NumbPath " + numbPath + " out of range 1..127");
        }
    }

    public SaRequest toRequest()
    {
        final int gids = sgids.size() + dgids.size();
        final byte[] bytes = new byte[MultiPathRecord.length(gids)];
        final MultiPathRecord mpr = new MultiPathRecord().wrap(new UnsafeBuffer(bytes), 0);
        mpr.clear(gids).sgidCount(sgids.size()).dgidCount(dgids.size()).numbPath(numbPath).reversible(reversible);
        int index = 0;
        for (final Gid gid : sgids)
        {
            mpr.gid(index++, gid);
        }
        for (final Gid gid : dgids)
        {
            mpr.gid(index++, gid);
        }
        final long mask = MultiPathRecordComponentMask.SGID_COUNT | MultiPathRecordComponentMask.DGID_COUNT |
            MultiPathRecordComponentMask.NUMB_PATH | (reversible ? MultiPathRecordComponentMask.REVERSIBLE : 0);
        final RecordCheck check = this::matches;
        return SaRequest.getMulti(SaAttribute.MULTI_PATH_RECORD, SaAttribute.PATH_RECORD)
            .description("MultiPathRecord GetMulti " + this).componentMask(mask).payload(bytes)
            .recordLength(PathRecord.LENGTH).check(check).cacheKey(this).build();
    }

    /** Every PathRecord must join one of our SGIDs to one of our DGIDs. */
    private boolean matches(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < PathRecord.LENGTH)
        {
            return false;
        }
        final PathRecord pr = new PathRecord().wrap(buffer, offset, length);
        return sgids.contains(pr.sgid()) && dgids.contains(pr.dgid());
    }
}

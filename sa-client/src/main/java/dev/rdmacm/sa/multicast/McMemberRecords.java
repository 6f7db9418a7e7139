package dev.rdmacm.sa.multicast;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.McMemberRecord;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.RecordCheck;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaRequest;
import dev.rdmacm.sa.SaResponse;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * MCMemberRecord Set (join), Delete (leave) and Get (a group's record) on the SA, as the kernel's
 * {@code ib_sa_mcmember_rec_query} sends them: retries and deadlines are the {@link SaClient}'s, and
 * {@link #kernelStatus} turns a failure into the status {@code multicast.c} hands its member.
 */
public final class McMemberRecords
{
    /** {@code multicast.c}'s {@code send_join} and {@code send_leave}: 3000 ms for each query. */
    public static final Duration KERNEL_TIMEOUT = Duration.ofMillis(3000);

    private McMemberRecords()
    {
    }

    /**
     * SubnAdmSet: joins {@code record}'s port to its group with {@code record}'s JoinState, the fields
     * {@code componentMask} names matched or used to create the group. The future holds the group's
     * record as the SA answered it (its Q_Key, MLID, MTU, rate, SL..., JoinState the union the port holds).
     */
    public static CompletableFuture<McMemberRecordValue> join(final SaClient client, final McMemberRecordValue record,
        final long componentMask, final Duration timeout)
    {
        final SaRequest set = SaRequest.set(SaAttribute.MC_MEMBER_RECORD)
            .description("MCMemberRecord Set " + record.mgid() + " port " + record.portGid() + " JoinState 0x" +
                Integer.toHexString(record.joinState()))
            .componentMask(componentMask).payload(record.encode()).recordLength(McMemberRecord.LENGTH)
            .check(sameGroupAndPort(record)).build();
        return client.query(set, timeout).thenApply(McMemberRecords::single);
    }

    /**
     * SubnAdmDelete with the kernel's leave mask (MGID, PortGID, JoinState): drops {@code joinState}'s
     * bits of the port's membership. The future holds the SA's answer (JoinState what the port still holds).
     */
    public static CompletableFuture<McMemberRecordValue> leave(final SaClient client, final Gid mgid, final Gid portGid,
        final int joinState, final Duration timeout)
    {
        final McMemberRecordValue record = McMemberRecordValue.of(mgid, portGid, joinState);
        final SaRequest delete = SaRequest.delete(SaAttribute.MC_MEMBER_RECORD)
            .description("MCMemberRecord Delete " + mgid + " port " + portGid + " JoinState 0x" + Integer.toHexString(joinState))
            .componentMask(McMemberRecordComponentMask.KERNEL_LEAVE).payload(record.encode())
            .recordLength(McMemberRecord.LENGTH).check(sameGroupAndPort(record)).build();
        return client.query(delete, timeout).thenApply(McMemberRecords::single);
    }

    /**
     * SubnAdmGet of the group {@code mgid}: its record (Q_Key, MLID, SL, FlowLabel, TClass...) as the SA
     * shows it to a port without an SM_Key, PortGID zero. The kernel takes these from its cache of the
     * IPoIB broadcast group's record, which IPoIB's join filled; this asks the SA instead.
     */
    public static CompletableFuture<McMemberRecordValue> group(final SaClient client, final Gid mgid, final Duration timeout)
    {
        final McMemberRecordValue record = McMemberRecordValue.of(mgid, Gid.ZERO, 0);
        final SaRequest get = SaRequest.get(SaAttribute.MC_MEMBER_RECORD).description("MCMemberRecord Get " + mgid)
            .componentMask(McMemberRecordComponentMask.MGID).payload(record.encode()).recordLength(McMemberRecord.LENGTH)
            .check((buffer, offset, length) -> length >= McMemberRecord.LENGTH &&
                new McMemberRecord().wrap(buffer, offset, length).mgid().equals(mgid))
            .build();
        return client.query(get, timeout).thenApply(McMemberRecords::single);
    }

    /**
     * The status {@code multicast.c} gives a member for {@code failure}, as a negative errno: -EINVAL for
     * any SA status ({@code sa_query.c}'s {@code recv_handler} maps them all), -ETIMEDOUT for no answer,
     * -EINTR for a query cancelled or flushed (the client closed), -EIO for a send error, -ENOMEM when the
     * query could not even be queued.
     */
    public static int kernelStatus(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
            failure.getCause() : failure;
        if (!(cause instanceof SaQueryException sa))
        {
            return -Errno.EIO;
        }
        if (sa.madStatus() != -1)
        {
            return -Errno.EINVAL;
        }
        return switch (sa.error())
        {
            case TIMED_OUT -> -Errno.ETIMEDOUT;
            case CLOSED -> -Errno.EINTR;
            case NO_RESOURCES -> -Errno.ENOMEM;
            default -> sa.error() == SaError.TRANSPORT_FAILED ? -Errno.EIO : -Errno.EINVAL;
        };
    }

    /** The answer must be about the group and port asked for (a zero MGID asks the SA to make one). */
    private static RecordCheck sameGroupAndPort(final McMemberRecordValue asked)
    {
        return (buffer, offset, length) ->
        {
            if (length < McMemberRecord.LENGTH)
            {
                return false;
            }
            final McMemberRecord answer = new McMemberRecord().wrap(buffer, offset, length);
            return (asked.mgid().isZero() || answer.mgid().equals(asked.mgid())) && answer.portGid().equals(asked.portGid());
        };
    }

    private static McMemberRecordValue single(final SaResponse response)
    {
        return McMemberRecordValue.decode(response.records().get(0));
    }
}

package dev.rdmacm.sa.multicast;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.sa.SaClient;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One port's multicast memberships, refcounted as the kernel's {@code ib_sa} multicast layer
 * ({@code multicast.c}) keeps them: one SA membership per group however many members join it.
 * <ul>
 * <li>Groups are keyed by MGID; a join with a zero MGID gets a group of its own, keyed by the MGID the
 *     SA made once it answers.</li>
 * <li>A group serves its requests one at a time, in order. A member whose JoinState bits the port
 *     already holds finishes at once, with no MAD, if its masked fields match the group's record
 *     ({@code cmp_rec}; otherwise -EINVAL); a member that needs more bits sends its own Set.</li>
 * <li>A group counts its members per JoinState bit; when a bit's count drops to 0 the port leaves it: a
 *     Delete with the kernel's leave mask, tried up to 3 times.</li>
 * </ul>
 * Not thread-safe: one owner thread calls {@link #join}, {@link #leave} and {@link #onAnswer}. The SA's
 * answers arrive on its engine thread and are handed to {@code answers}, whose job is to bring each back
 * to the owner's thread and call {@link #onAnswer} there.
 */
public final class MulticastMemberships
{
    /** {@code multicast.c}'s {@code send_leave} retries: at most this many Deletes per leave. */
    static final int LEAVE_ATTEMPTS = 3;
    private static final int[] BITS = {0x1, 0x2, 0x4, 0x8};

    private final SaClient sa;
    private final Duration timeout;
    private final Consumer<Answer> answers;
    private final Map<Gid, Group> groups = new HashMap<>();
    /** Groups whose MGID the SA has not made yet, each its own. */
    private final List<Group> unnamed = new ArrayList<>();

    /** What a member learns: the group's record, or the kernel's negative errno. Called on the owner's thread. */
    public interface Listener
    {
        void joined(McMemberRecordValue group);

        void failed(int status);
    }

    /** One join: its record and mask, who hears the outcome, and whether it holds its bits now. */
    public static final class Member
    {
        private final McMemberRecordValue record;
        private final long componentMask;
        private final Listener listener;
        private Group group;
        private boolean active;
        private boolean left;

        private Member(final McMemberRecordValue record, final long componentMask, final Listener listener)
        {
            this.record = record;
            this.componentMask = componentMask;
            this.listener = listener;
        }

        public boolean active()
        {
            return active;
        }

        @Override
        public String toString()
        {
            return "member of " + record.mgid() + " JoinState 0x" + Integer.toHexString(record.joinState()) +
                (active ? " (joined)" : left ? " (left)" : " (pending)");
        }
    }

    /** An SA answer on its way back to the owner's thread: hand it to {@link #onAnswer}. */
    public record Answer(Object group, Object member, int leaveBits, McMemberRecordValue record, Throwable failure)
    {
    }

    private static final class Group
    {
        Gid mgid;
        McMemberRecordValue record;
        int held;
        final int[] counts = new int[BITS.length];
        final ArrayDeque<Member> pending = new ArrayDeque<>();
        Member inFlight;
        int leaving;
        int leaveAttempts;

        Group(final Gid mgid)
        {
            this.mgid = mgid;
        }

        boolean busy()
        {
            return inFlight != null || leaving != 0;
        }

        int counted()
        {
            int bits = 0;
            for (int i = 0; i < BITS.length; i++)
            {
                bits |= counts[i] > 0 ? BITS[i] : 0;
            }
            return bits;
        }
    }

    /**
     * @param sa      the SA client of this port.
     * @param timeout each Set's and Delete's deadline ({@link McMemberRecords#KERNEL_TIMEOUT} as the kernel).
     * @param answers brings each SA answer back to the owner's thread, where it calls {@link #onAnswer}.
     */
    public MulticastMemberships(final SaClient sa, final Duration timeout, final Consumer<Answer> answers)
    {
        this.sa = Objects.requireNonNull(sa, "sa");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.answers = Objects.requireNonNull(answers, "answers");
    }

    /**
     * {@code ib_sa_join_multicast}: queues {@code record} (its PortGID this port's, JoinState the bits
     * wanted) on its group; {@code listener} hears {@link Listener#joined} or {@link Listener#failed} once,
     * unless the member leaves first.
     */
    public Member join(final McMemberRecordValue record, final long componentMask, final Listener listener)
    {
        if (record.joinState() == 0)
        {
            throw new IllegalArgumentException("join of " + record.mgid() + " with JoinState 0: no bit to join");
        }
        final Member member = new Member(record, componentMask, listener);
        Group group;
        if (record.mgid().isZero())
        {
            group = new Group(Gid.ZERO);
            unnamed.add(group);
        }
        else
        {
            group = groups.computeIfAbsent(record.mgid(), Group::new);
        }
        member.group = group;
        group.pending.add(member);
        process(group);
        return member;
    }

    /**
     * {@code ib_sa_free_multicast}: the member is gone and hears nothing more. A joined member's bits are
     * counted down; a bit no one holds any more is left at the SA. A member still waiting is dropped; one
     * whose Set is out is forgotten, and if the Set succeeds its bits are left again.
     */
    public void leave(final Member member)
    {
        if (member.left)
        {
            return;
        }
        member.left = true;
        final Group group = member.group;
        if (member.active)
        {
            member.active = false;
            for (int i = 0; i < BITS.length; i++)
            {
                if ((member.record.joinState() & BITS[i]) != 0)
                {
                    group.counts[i]--;
                }
            }
        }
        else
        {
            group.pending.remove(member);
        }
        process(group);
    }

    /** The JoinState bits the port holds at the SA for {@code mgid}, 0 for none. */
    public int heldAtSa(final Gid mgid)
    {
        final Group group = groups.get(mgid);
        return group == null ? 0 : group.held;
    }

    /** Groups with a member, a request or a membership at the SA. */
    public int groupCount()
    {
        return groups.size() + unnamed.size();
    }

    /** The owner's thread: an SA answer that {@code answers} brought back. */
    public void onAnswer(final Answer answer)
    {
        final Group group = (Group)answer.group();
        if (answer.member() != null)
        {
            joinAnswered(group, (Member)answer.member(), answer.record(), answer.failure());
        }
        else
        {
            leaveAnswered(group, answer.leaveBits(), answer.failure());
        }
        process(group);
    }

    private void joinAnswered(final Group group, final Member member, final McMemberRecordValue record, final Throwable failure)
    {
        group.inFlight = null;
        if (failure != null)
        {
            if (!member.left)
            {
                member.left = true;
                member.listener.failed(McMemberRecords.kernelStatus(failure));
            }
            return;
        }
        if (group.mgid.isZero())
        {
            unnamed.remove(group);
            group.mgid = record.mgid();
            if (groups.putIfAbsent(group.mgid, group) != null)
            {
                unnamed.add(group); // another group got this MGID first: this one stays on its own
            }
        }
        group.record = record;
        group.held = record.joinState() | member.record.joinState();
        if (member.left)
        {
            return; // its bits are counted by no one: process() leaves them
        }
        activate(group, member);
    }

    private void leaveAnswered(final Group group, final int bits, final Throwable failure)
    {
        group.leaving = 0;
        if (failure != null && ++group.leaveAttempts < LEAVE_ATTEMPTS)
        {
            return; // process() sends it again
        }
        group.leaveAttempts = 0;
        group.held &= ~bits;
    }

    private void activate(final Group group, final Member member)
    {
        member.active = true;
        for (int i = 0; i < BITS.length; i++)
        {
            if ((member.record.joinState() & BITS[i]) != 0)
            {
                group.counts[i]++;
            }
        }
        member.listener.joined(group.record);
    }

    /** {@code mcast_work_handler}: serves the group's next request, or leaves the bits no one counts. */
    private void process(final Group group)
    {
        while (!group.busy())
        {
            final Member next = group.pending.peek();
            if (next != null)
            {
                if ((next.record.joinState() & ~group.held) == 0)
                {
                    group.pending.poll();
                    final int status = compare(group.record, next.record, next.componentMask);
                    if (status == 0)
                    {
                        activate(group, next);
                    }
                    else
                    {
                        next.left = true;
                        next.listener.failed(status);
                    }
                    continue;
                }
                group.pending.poll();
                group.inFlight = next;
                final McMemberRecordValue asked = group.mgid.isZero() ? next.record : next.record.withMgid(group.mgid);
                McMemberRecords.join(sa, asked, next.componentMask, timeout).whenComplete((record, failure) ->
                    answers.accept(new Answer(group, next, 0, record, failure)));
                return;
            }
            final int unheld = group.held & ~group.counted();
            if (unheld != 0)
            {
                group.leaving = unheld;
                McMemberRecords.leave(sa, group.mgid, group.record.portGid(), unheld, timeout).whenComplete((record, failure) ->
                    answers.accept(new Answer(group, null, unheld, record, failure)));
                return;
            }
            if (group.held == 0 && group.counted() == 0)
            {
                if (!groups.remove(group.mgid, group))
                {
                    unnamed.remove(group);
                }
            }
            return;
        }
    }

    /** {@code cmp_rec}: the member's masked fields against the group's record; -EINVAL on a mismatch. */
    static int compare(final McMemberRecordValue group, final McMemberRecordValue member, final long mask)
    {
        final boolean mismatch =
            (mask & McMemberRecordComponentMask.PORT_GID) != 0 && !group.portGid().equals(member.portGid()) ||
            (mask & McMemberRecordComponentMask.QKEY) != 0 && group.qkey() != member.qkey() ||
            (mask & McMemberRecordComponentMask.MLID) != 0 && group.mlid() != member.mlid() ||
            selectorFails(mask, McMemberRecordComponentMask.MTU_SELECTOR, McMemberRecordComponentMask.MTU,
                member.mtuSelector(), group.mtu(), member.mtu()) ||
            (mask & McMemberRecordComponentMask.TRAFFIC_CLASS) != 0 && group.tClass() != member.tClass() ||
            (mask & McMemberRecordComponentMask.PKEY) != 0 && group.pKey() != member.pKey() ||
            selectorFails(mask, McMemberRecordComponentMask.RATE_SELECTOR, McMemberRecordComponentMask.RATE,
                member.rateSelector(), group.rate(), member.rate()) ||
            selectorFails(mask, McMemberRecordComponentMask.PACKET_LIFE_TIME_SELECTOR,
                McMemberRecordComponentMask.PACKET_LIFE_TIME, member.packetLifeTimeSelector(), group.packetLifeTime(),
                member.packetLifeTime()) ||
            (mask & McMemberRecordComponentMask.SL) != 0 && group.sl() != member.sl() ||
            (mask & McMemberRecordComponentMask.FLOW_LABEL) != 0 && group.flowLabel() != member.flowLabel() ||
            (mask & McMemberRecordComponentMask.HOP_LIMIT) != 0 && group.hopLimit() != member.hopLimit() ||
            (mask & McMemberRecordComponentMask.SCOPE) != 0 && group.scope() != member.scope();
        return mismatch ? -Errno.EINVAL : 0;
    }

    /** {@code check_selector}: selector 0 "greater than", 1 "less than", 2 "exactly", 3 anything. */
    private static boolean selectorFails(final long mask, final long selectorBit, final long valueBit, final int selector,
        final int groupValue, final int memberValue)
    {
        if ((mask & selectorBit) == 0 || (mask & valueBit) == 0)
        {
            return false;
        }
        return switch (selector)
        {
            case 0 -> groupValue <= memberValue;
            case 1 -> groupValue >= memberValue;
            case 2 -> groupValue != memberValue;
            default -> false;
        };
    }
}

package dev.rdmacm.ibcm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.protocol.cm.IbCmState;
import org.agrona.concurrent.UnsafeBuffer;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the CM engine's receive path
 * ({@link IbCmEngine#onMadReceived}): MADs into two real engines back to back ({@link BackToBackCms}, its
 * {@link InMemoryMadPipe} as the transport), with a listener that accepts every REQ, an established
 * connection and a REQ in flight, so that every state that takes a MAD exists. The fixture is
 * deterministic (seeded random comm IDs), so the seeds' comm IDs match. The input is a sequence of
 * {@code [control][length: 2 bytes][length bytes]}: control bit 0 delivers to the active engine (from the
 * passive port) instead of the passive one, bit 1 lets the pipe deliver what the engines answered. The
 * contract: nothing escapes; every transition of a connection starts where its last one ended; every
 * timer runs out within 30 days on the clock (retries, timeouts, timewait), and then no connection is left
 * waiting on the wire, only on its consumer. Seeds: the MADs the same engines exchange for a second REQ
 * (REP, the stale connection's REJ and DREQ), a SIDR request and a REQ to a service nobody listens on.
 */
class IbCmEngineReceiveFuzzTest
{
    /**
     * A bound on the clock for the timers a few MADs can set: a REQ may ask for 16 REPs at its longest
     * response timeout (4.096 us x 2^31, 2.4 hours each, 39 hours in all) and each MRA for 2.4 hours more.
     */
    private static final Duration EVERY_TIMER = Duration.ofDays(30);
    /** States whose timers end them when the peer says nothing more; the others wait for the consumer. */
    private static final Set<IbCmState> WAITING_ON_THE_WIRE = EnumSet.of(IbCmState.REQ_SENT, IbCmState.REP_SENT,
        IbCmState.MRA_REQ_RCVD, IbCmState.MRA_REP_RCVD, IbCmState.DREQ_SENT, IbCmState.TIMEWAIT,
        IbCmState.SIDR_REQ_SENT);

    private static boolean timersPending(final BackToBackCms cms)
    {
        return cms.active.timers.earliestDeadline() != Long.MAX_VALUE || cms.passive.timers.earliestDeadline() != Long.MAX_VALUE;
    }

    @FuzzTest
    void shouldNeverThrowAndKeepEveryConnectionConsistent(final byte[] input)
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.establish();
        final IbCmConnection pending = cms.active.connection();
        pending.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN + 1, null), QpTransitions.NONE);
        int at = 0;
        while (input.length - at >= 3)
        {
            final int control = input[at] & 0xff;
            final int length = Math.min(((input[at + 1] & 0xff) << 8) | (input[at + 2] & 0xff), input.length - at - 3);
            final byte[] mad = Arrays.copyOfRange(input, at + 3, at + 3 + length);
            at += 3 + length;
            final boolean toActive = (control & 1) != 0;
            final BackToBackCms.Side side = toActive ? cms.active : cms.passive;
            final IbCmPeerAddress from = IbCmPeerAddress.cmAt(toActive ? BackToBackCms.PASSIVE_GID : BackToBackCms.ACTIVE_GID, 0);
            side.engine.onMadReceived(from, new UnsafeBuffer(mad), 0, mad.length);
            if ((control & 2) != 0)
            {
                cms.settle();
            }
        }
        for (long day = 0; day < EVERY_TIMER.toDays() && timersPending(cms); day++)
        {
            cms.advance(Duration.ofDays(1));
        }
        assertFalse(timersPending(cms), "a timer still pending after " + EVERY_TIMER.toDays() + " days");
        final Map<IbCmConnection, IbCmState> last = new HashMap<>();
        for (final BackToBackCms.Transition transition : cms.transitions)
        {
            final IbCmState before = last.put(transition.connection(), transition.to());
            if (before != null)
            {
                assertEquals(before, transition.from(), () -> "a transition of " + transition.connection());
            }
        }
        for (final IbCmConnection connection : cms.active.engine.connections())
        {
            assertFalse(WAITING_ON_THE_WIRE.contains(connection.state()), () -> "active " + connection);
        }
        for (final IbCmConnection connection : cms.passive.engine.connections())
        {
            assertFalse(WAITING_ON_THE_WIRE.contains(connection.state()), () -> "passive " + connection);
        }
    }
}

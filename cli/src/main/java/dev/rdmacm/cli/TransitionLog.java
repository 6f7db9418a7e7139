package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The id state transitions of one command run, for {@code --trace}. Each is timed on the clock of the
 * address resolution's steps: from {@link #restart()}, which a command calls just before
 * {@code rdma_resolve_addr} (before it, from the log's creation). The listener runs on the CM's
 * conductor thread while the command reads on its own.
 */
final class TransitionLog implements StateTransitionListener
{
    /** One transition: {@code atNanos} after the clock's start. */
    record Transition(long atNanos, CmIdState from, CmIdState to, String reason)
    {
        /** {@code "  0.412 ms ADDR_QUERY -> ADDR_RESOLVED (reason)"}, as the text trace prints it. */
        String text()
        {
            return String.format(Locale.ROOT, "%10.3f ms %s -> %s (%s)", atNanos / 1e6, from, to, reason);
        }
    }

    private volatile long startNanos = System.nanoTime();
    private final List<Transition> transitions = new CopyOnWriteArrayList<>();

    @Override
    public void onTransition(final RdmaCmId id, final CmIdState from, final CmIdState to, final String reason)
    {
        transitions.add(new Transition(System.nanoTime() - startNanos, from, to, reason));
    }

    /** Starts the clock again: the moment the command calls {@code rdma_resolve_addr}, where its steps' clock starts. */
    void restart()
    {
        startNanos = System.nanoTime();
    }

    /** Nanoseconds on this clock now: where a later call's own step clock starts (rdma_resolve_route's). */
    long nowNanos()
    {
        return System.nanoTime() - startNanos;
    }

    /** The transitions so far, oldest first. */
    List<Transition> transitions()
    {
        return List.copyOf(transitions);
    }

    /** {@code [{"at_us", "from", "to", "reason"}...]}. */
    static JsonArray json(final List<Transition> transitions)
    {
        final JsonArray list = new JsonArray();
        for (final Transition transition : transitions)
        {
            list.addObject().put("at_us", transition.atNanos() / 1000).put("from", transition.from().name())
                .put("to", transition.to().name()).put("reason", transition.reason());
        }
        return list;
    }
}

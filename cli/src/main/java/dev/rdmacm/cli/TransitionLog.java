package dev.rdmacm.cli;

import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The id state transitions of one command run as {@code --trace} prints them,
 * {@code "  0.412 ms ADDR_QUERY -> ADDR_RESOLVED (reason)"}, timed from the log's creation. The
 * listener runs on the CM's event-loop thread while the command reads on its own.
 */
final class TransitionLog implements StateTransitionListener
{
    private final long startNanos = System.nanoTime();
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void onTransition(final RdmaCmId id, final CmIdState from, final CmIdState to, final String reason)
    {
        lines.add(String.format(Locale.ROOT, "%10.3f ms %s -> %s (%s)", (System.nanoTime() - startNanos) / 1e6, from, to,
            reason));
    }

    /** The transitions so far, oldest first. */
    List<String> lines()
    {
        return List.copyOf(lines);
    }
}

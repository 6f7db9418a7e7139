package dev.rdmacm.cm;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The steps of one resolution, appended by the event loop as it runs them (re-runs after a
 * neighbour event append the route and link steps again, as the kernel repeats them).
 */
public final class ResolutionTrace
{
    private final Instant startedAt;
    private final long startNanos;
    private final List<ResolutionStep> steps = new ArrayList<>(8);

    public ResolutionTrace(final long startNanos)
    {
        this.startedAt = Instant.now();
        this.startNanos = startNanos;
    }

    public long startNanos()
    {
        return startNanos;
    }

    public Instant startedAt()
    {
        return startedAt;
    }

    /** Records a step that began at {@code stepStartNanos} (System.nanoTime) and ends now. */
    public void record(final String name, final long stepStartNanos, final String detail)
    {
        final long now = System.nanoTime();
        synchronized (steps)
        {
            steps.add(new ResolutionStep(name, stepStartNanos - startNanos, now - stepStartNanos, detail));
        }
    }

    /** The steps in the order they began (a wait is recorded when it ends but began before the re-run). */
    public List<ResolutionStep> steps()
    {
        synchronized (steps)
        {
            final List<ResolutionStep> ordered = new ArrayList<>(steps);
            ordered.sort(Comparator.comparingLong(ResolutionStep::startNanos));
            return List.copyOf(ordered);
        }
    }

    public ResolutionStep find(final String name)
    {
        for (final ResolutionStep step : steps())
        {
            if (step.name().equals(name))
            {
                return step;
            }
        }
        return null;
    }
}

package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.resolver.ResolutionStep;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code --trace} shows of one run: the steps of {@code rdma_resolve_addr}, those of
 * {@code rdma_resolve_route} when it was called, and the id's state transitions, all on one clock:
 * microseconds after the command called {@code rdma_resolve_addr} (docs/json.md, "Traces"). The
 * resolver times each call's steps from that call, so the route's steps are moved by the moment
 * {@code rdma_resolve_route} was called.
 *
 * @param steps       the address resolution's steps.
 * @param routeSteps  the route resolution's steps on the address call's clock; null when the command resolves no route.
 * @param transitions the id state transitions ({@link TransitionLog}).
 */
record Trace(List<ResolutionStep> steps, List<ResolutionStep> routeSteps, List<TransitionLog.Transition> transitions)
{
    Trace
    {
        steps = steps == null ? List.of() : steps;
    }

    /** Steps timed from a later call, moved onto the clock that starts {@code offsetNanos} before it. */
    static List<ResolutionStep> shifted(final List<ResolutionStep> steps, final long offsetNanos)
    {
        final List<ResolutionStep> moved = new ArrayList<>(steps.size());
        for (final ResolutionStep step : steps)
        {
            moved.add(new ResolutionStep(step.name(), step.startNanos() + offsetNanos, step.tookNanos(), step.detail()));
        }
        return moved;
    }

    /** The JSON keys: {@code "steps"}, {@code "route_steps"} (with a route) and {@code "transitions"}. */
    JsonObject addTo(final JsonObject tree)
    {
        tree.put("steps", JsonOutput.steps(steps));
        if (routeSteps != null)
        {
            tree.put("route_steps", JsonOutput.steps(routeSteps));
        }
        tree.put("transitions", TransitionLog.json(transitions));
        return tree;
    }

    /** The text sections: each call's steps under its name, then the transitions. */
    void print(final PrintWriter out)
    {
        out.println("rdma_resolve_addr steps:");
        steps.forEach(step -> out.println("  " + step));
        if (routeSteps != null && !routeSteps.isEmpty())
        {
            out.println("rdma_resolve_route steps:");
            routeSteps.forEach(step -> out.println("  " + step));
        }
        out.println("transitions:");
        transitions.forEach(transition -> out.println("  " + transition.text()));
    }
}

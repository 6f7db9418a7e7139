package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.resolver.ResolutionStep;

import java.io.PrintWriter;
import java.util.List;

/**
 * What {@code --trace} shows of one run: the steps of {@code rdma_resolve_addr}, those of
 * {@code rdma_resolve_route} when it was called, and the id's state transitions. Each call's steps are
 * timed from the start of that call, as the kernel's requests are.
 *
 * @param steps       the address resolution's steps.
 * @param routeSteps  the route resolution's steps; null when the command resolves no route.
 * @param transitions the id state transitions, one text each ({@link TransitionLog}).
 */
record Trace(List<ResolutionStep> steps, List<ResolutionStep> routeSteps, List<String> transitions)
{
    Trace
    {
        steps = steps == null ? List.of() : steps;
    }

    /** The JSON keys: {@code "steps"}, {@code "route_steps"} (with a route) and {@code "transitions"}. */
    JsonObject addTo(final JsonObject tree)
    {
        tree.put("steps", JsonOutput.steps(steps));
        if (routeSteps != null)
        {
            tree.put("route_steps", JsonOutput.steps(routeSteps));
        }
        tree.put("transitions", JsonOutput.transitions(transitions));
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
        transitions.forEach(transition -> out.println("  " + transition));
    }
}

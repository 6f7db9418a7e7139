package dev.rdmacm.resolver.engine;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The differential comparison itself, shared by the host's cases ({@link RouteDifferentialNamespaceTest})
 * and the guest's ({@link RouteDifferentialVrfInGuest}): each query's route and {@code addr_resolve}
 * answer, ours against the kernel's read just before or just after it, every difference collected with
 * the configuration that produced it, and one assertion at the end.
 */
final class RouteDifferences
{
    private final List<String> differences = new ArrayList<>();
    private int compared;

    /** A fixed case's queries: our route and resolution against the kernel's. */
    void compare(final KernelAnswers kernel, final OurAnswers ours, final List<KernelAnswers.Query> queries) throws Exception
    {
        compare(kernel, ours, queries, "fixed case", List.of(), "");
    }

    /** {@code queries} asked of both; {@code where}, {@code commands} and {@code refused} describe a difference. */
    void compare(final KernelAnswers kernel, final OurAnswers ours, final List<KernelAnswers.Query> queries,
        final String where, final List<String> commands, final String refused) throws Exception
    {
        kernel.readLinks();
        for (final KernelAnswers.Query query : queries)
        {
            final int oif = query.outputDevice() == null ? 0 : kernel.ifindex(query.outputDevice());
            final KernelAnswers.RouteAnswer kernelRoute = kernel.route(query);
            final KernelAnswers.RouteAnswer ourRoute = ours.route(query, oif);
            if (!ourRoute.equals(kernelRoute) && !ourRoute.equals(kernel.route(query)))
            {
                differ(where, commands, refused, "route get " + query, kernelRoute, ourRoute);
            }
            final KernelAnswers.ResolutionAnswer kernelResolution = kernel.resolution(query, kernelRoute);
            final KernelAnswers.ResolutionAnswer ourResolution = ours.resolution(query, oif);
            if (!ourResolution.equals(kernelResolution) &&
                !ourResolution.equals(kernel.resolution(query, kernel.route(query))))
            {
                differ(where, commands, refused, "addr_resolve " + query, kernelResolution, ourResolution);
            }
            compared += 2;
        }
    }

    /** The neighbour entry of {@code address} on {@code device}, ours against the kernel's. */
    void compareNeighbour(final KernelAnswers kernel, final OurAnswers ours, final InetAddress address, final String device)
        throws Exception
    {
        final KernelAnswers.Neighbour kernelEntry = kernel.neighbour(address, device);
        final KernelAnswers.Neighbour ourEntry = ours.neighbour(address, kernel.ifindex(device));
        if (!Objects.equals(ourEntry, kernelEntry) && !Objects.equals(ourEntry, kernel.neighbour(address, device)))
        {
            differ("neighbour", List.of(), "", "neigh " + address.getHostAddress() + " dev " + device, kernelEntry, ourEntry);
        }
        compared++;
    }

    /** Answers compared so far. */
    int compared()
    {
        return compared;
    }

    /** Fails with every difference collected, or when nothing was compared. */
    void assertNone()
    {
        assertTrue(compared > 0, "nothing compared");
        assertEquals("", String.join("\n", differences), differences.size() + " answers differ from the kernel's");
    }

    private void differ(final String where, final List<String> commands, final String refused, final String what,
        final Object kernelAnswer, final Object ourAnswer)
    {
        differences.add(where + ": " + what + "\n  kernel: " + kernelAnswer + "\n  ours:   " + ourAnswer +
            (commands.isEmpty() ? "" : "\n  configuration: " + String.join("; ", commands)) +
            (refused.isEmpty() ? "" : "\n  refused by the kernel: " + refused));
    }
}

package dev.rdmacm.resolver.engine;

/**
 * {@link RouteDifferentialNamespaceTest} with our lookups through a {@link RouteCache}: the same cases,
 * the same seeded random configurations and changes, the same answers as the kernel's; each route is
 * asked twice, the second time from the cache unless a notification emptied it.
 */
class RouteDifferentialWithCacheNamespaceTest extends RouteDifferentialNamespaceTest
{
    @Override
    OurAnswers openOurs() throws Exception
    {
        return new OurAnswers(network, true);
    }
}

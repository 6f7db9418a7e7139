package dev.rdmacm.resolver.addrinfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Test double for the ACM service: answers every query with one scripted answer (or none) and records
 * the queries. The real ACM service and its wire client live on the acm branch.
 */
final class ScriptedAcmClient implements AcmClient
{
    final List<AcmQuery> queries = new ArrayList<>();
    private final AcmAnswer answer;

    ScriptedAcmClient(final AcmAnswer answer)
    {
        this.answer = answer;
    }

    @Override
    public Optional<AcmAnswer> resolve(final AcmQuery query)
    {
        queries.add(query);
        return Optional.ofNullable(answer);
    }
}

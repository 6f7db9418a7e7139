package dev.rdmacm.addrinfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Test double for the ACM service: answers every query with a scripted answer (or none) and records
 * the queries. The wire client is {@link AcmSocketClient}; the real service is the acm-server module.
 */
final class ScriptedAcmClient implements AcmClient
{
    final List<AcmQuery> queries = new ArrayList<>();
    private final Function<AcmQuery, AcmAnswer> script;

    ScriptedAcmClient(final Function<AcmQuery, AcmAnswer> script)
    {
        this.script = script;
    }

    /** Answers every query with {@code answer}; null for "no ACM answer". */
    static ScriptedAcmClient answering(final AcmAnswer answer)
    {
        return new ScriptedAcmClient(query -> answer);
    }

    @Override
    public Optional<AcmAnswer> resolve(final AcmQuery query)
    {
        queries.add(query);
        return Optional.ofNullable(script.apply(query));
    }
}

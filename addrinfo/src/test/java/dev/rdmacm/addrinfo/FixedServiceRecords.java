package dev.rdmacm.addrinfo;

import java.util.ArrayList;
import java.util.List;

/**
 * Test double for the SA ServiceRecord lookup: the real one (sa-client over OpenSM) is not on this
 * branch; this one answers a fixed list and records the queries.
 */
final class FixedServiceRecords implements ServiceRecordLookup
{
    final List<ServiceQuery> queries = new ArrayList<>();
    private final List<ServiceRecordMatch> answer;

    FixedServiceRecords(final List<ServiceRecordMatch> answer)
    {
        this.answer = answer;
    }

    @Override
    public List<ServiceRecordMatch> lookup(final ServiceQuery query)
    {
        queries.add(query);
        return answer;
    }
}

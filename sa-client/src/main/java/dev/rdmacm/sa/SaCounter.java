package dev.rdmacm.sa;

/** What the engine counts; read them with {@link SaCounters#get}. */
public enum SaCounter
{
    QUERIES_SUBMITTED,
    QUERIES_SUCCEEDED,
    QUERIES_FAILED,
    QUERIES_TIMED_OUT,
    /** MADs sent to the SA for a new transaction (not counting retries). */
    SA_QUERIES_SENT,
    RETRIES_SENT,
    RMPP_ACKS_SENT,
    RMPP_ACKS_RECEIVED,
    BUSY_RESPONSES,
    REDIRECTS,
    MADS_RECEIVED,
    RESPONSES_ACCEPTED,
    /** Responses whose TID matches no outstanding transaction: late, duplicated or foreign. */
    DROPPED_UNKNOWN_TID,
    /** Right TID, but not from the SA LID/QP (and GID, when addressed by one) the query went to. */
    DROPPED_WRONG_SOURCE,
    DROPPED_WRONG_METHOD,
    DROPPED_WRONG_ATTRIBUTE,
    /** Too short, wrong class or version, impossible RMPP or attribute-offset values. */
    DROPPED_MALFORMED,
    /** Requests addressed to us: this client serves nothing. */
    DROPPED_UNSOLICITED,
    /** Records that contradict the query (e.g. a PathRecord for another DGID). */
    DROPPED_MISMATCHED_RECORDS,
    RMPP_SEGMENTS_RECEIVED,
    RMPP_SEGMENTS_DROPPED,
    /** GetTable responses cut at one MAD by umad2sim (only the length tells). */
    TRUNCATED_TABLES,
    CACHE_HITS,
    CACHE_MISSES,
    /** Queries answered by joining an identical one already in flight. */
    COALESCED,
    /** Queries that waited because sa_depth queries were already outstanding. */
    QUEUED,
    SEND_FAILURES
}

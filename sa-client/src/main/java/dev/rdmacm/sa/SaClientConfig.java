package dev.rdmacm.sa;

import java.time.Duration;

/**
 * How an {@link SaClient} behaves.
 *
 * @param retryPolicy          how a deadline is split into retries (the kernel's by default).
 * @param saDepth              outstanding SA transactions at most; more wait in a queue (ibacm's sa_depth).
 * @param cacheTtl             how long successful PathRecord answers are reused; zero turns the cache off.
 * @param coalesce             identical PathRecord queries in flight share one SA transaction.
 * @param honourResponseTime   the SA's ClassPortInfo RespTimeValue is a lower bound of the retry interval.
 * @param rmppWindow           segments the receiver lets the sender have in flight (RMPP NewWindowLast).
 * @param smKey                the SM_Key sent in every request (0: untrusted, what saquery sends).
 * @param recorder             sees every MAD sent and received (pcap).
 */
public record SaClientConfig(
    RetryPolicy retryPolicy,
    int saDepth,
    Duration cacheTtl,
    boolean coalesce,
    boolean honourResponseTime,
    int rmppWindow,
    long smKey,
    MadRecorder recorder)
{
    /** ibacm's default sa_depth. */
    public static final int IBACM_SA_DEPTH = 1;

    public SaClientConfig
    {
        if (saDepth < 1)
        {
            throw new IllegalArgumentException("saDepth " + saDepth + " must be >= 1");
        }
        if (rmppWindow < 1 || rmppWindow > 1024)
        {
            throw new IllegalArgumentException("rmppWindow " + rmppWindow + " must be 1..1024");
        }
        if (cacheTtl.isNegative())
        {
            throw new IllegalArgumentException("cacheTtl " + cacheTtl + " must not be negative");
        }
    }

    /** Kernel retries, ibacm's sa_depth of 1, a 5-minute path cache, coalescing on. */
    public static SaClientConfig defaults()
    {
        return new SaClientConfig(RetryPolicy.KERNEL, IBACM_SA_DEPTH, Duration.ofMinutes(5), true, true, 32, 0,
            MadRecorder.NONE);
    }

    public SaClientConfig withRetryPolicy(final RetryPolicy value)
    {
        return new SaClientConfig(value, saDepth, cacheTtl, coalesce, honourResponseTime, rmppWindow, smKey, recorder);
    }

    public SaClientConfig withSaDepth(final int value)
    {
        return new SaClientConfig(retryPolicy, value, cacheTtl, coalesce, honourResponseTime, rmppWindow, smKey, recorder);
    }

    public SaClientConfig withCacheTtl(final Duration value)
    {
        return new SaClientConfig(retryPolicy, saDepth, value, coalesce, honourResponseTime, rmppWindow, smKey, recorder);
    }

    public SaClientConfig withCoalesce(final boolean value)
    {
        return new SaClientConfig(retryPolicy, saDepth, cacheTtl, value, honourResponseTime, rmppWindow, smKey, recorder);
    }

    public SaClientConfig withHonourResponseTime(final boolean value)
    {
        return new SaClientConfig(retryPolicy, saDepth, cacheTtl, coalesce, value, rmppWindow, smKey, recorder);
    }

    public SaClientConfig withRmppWindow(final int value)
    {
        return new SaClientConfig(retryPolicy, saDepth, cacheTtl, coalesce, honourResponseTime, value, smKey, recorder);
    }

    public SaClientConfig withRecorder(final MadRecorder value)
    {
        return new SaClientConfig(retryPolicy, saDepth, cacheTtl, coalesce, honourResponseTime, rmppWindow, smKey, value);
    }
}

package dev.rdmacm.sa;

import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.mad.MadHeader;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real {@link SaEngine} on an {@link InMemoryMadTransport} and a {@link ManualNanoClock}, with a Get and a
 * GetTable query in flight: what the SA engine's fuzz targets feed. {@link #finish} moves the clock past
 * every deadline and checks that the engine ended both queries, with an answer or an
 * {@link SaQueryException}, and is ready for another.
 */
final class SaEngineUnderFuzz
{
    static final int ATTRIBUTE = 0x0035;
    static final int RECORD = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    final ManualNanoClock clock = new ManualNanoClock();
    final InMemoryMadTransport transport = new InMemoryMadTransport();
    final SaEngine engine;
    final CompletableFuture<SaResponse> get = new CompletableFuture<>();
    final CompletableFuture<SaResponse> table = new CompletableFuture<>();

    SaEngineUnderFuzz()
    {
        final SaClientConfig config = SaClientConfig.defaults().withHonourResponseTime(false).withSaDepth(4)
            .withRmppWindow(4);
        // one engine per input, called on this thread: no command is ever offered, so no 65,536-slot queue
        engine = new SaEngine(transport, config, new SaCounters(), clock, (tx, from, to, now) -> { }, 2);
        engine.submit(SaRequest.get(ATTRIBUTE).description("fuzz get").payload(new byte[RECORD]).recordLength(RECORD)
            .build(), TIMEOUT.toNanos(), get);
        engine.submit(SaRequest.getTable(ATTRIBUTE).description("fuzz table").payload(new byte[RECORD])
            .recordLength(RECORD).build(), TIMEOUT.toNanos(), table);
        engine.doWork();
    }

    /** Hands {@code mad} to the engine as if from the SA (or another port) and runs a duty cycle. */
    void receive(final boolean fromSa, final byte[] mad)
    {
        transport.inject(fromSa, mad);
        engine.doWork();
    }

    /** The TransactionID of query {@code which} (modulo the queries sent: ClassPortInfo, Get, GetTable). */
    long tid(final int which)
    {
        return transport.requestTid(which);
    }

    static void putTid(final byte[] mad, final long tid)
    {
        for (int i = 0; i < 8; i++)
        {
            mad[MadHeader.TRANSACTION_ID_OFFSET + i] = (byte)(tid >>> (56 - 8 * i));
        }
    }

    void finish()
    {
        for (int i = 0; i < 64 && !(get.isDone() && table.isDone()); i++)
        {
            clock.advance(Duration.ofSeconds(1));
            engine.doWork();
        }
        assertEnded(get);
        assertEnded(table);
        final int sent = transport.requests();
        final CompletableFuture<SaResponse> another = new CompletableFuture<>();
        engine.submit(SaRequest.get(ATTRIBUTE).description("after fuzz").payload(new byte[RECORD])
            .recordLength(RECORD).build(), TIMEOUT.toNanos(), another);
        engine.doWork();
        assertTrue(transport.requests() > sent || another.isDone(), "the engine sends a query after the fuzz");
    }

    private static void assertEnded(final CompletableFuture<SaResponse> query)
    {
        assertTrue(query.isDone(), "a query outlived its deadline");
        try
        {
            query.get();
        }
        catch (final ExecutionException ex)
        {
            assertInstanceOf(SaQueryException.class, ex.getCause());
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
    }
}

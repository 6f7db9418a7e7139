package dev.rdmacm.acm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A server process for {@link AcmServerLifecycleTest} whose shutdown hangs: it is started and closed
 * as the CLI starts and closes it (a shutdown hook armed with {@link AcmShutdownWatchdog}), but its
 * path querier's {@code close} never returns, a test double for a back-end that hangs (a dead SA
 * thread). The watchdog's bound is the first argument's milliseconds, so the test need not wait 20 s.
 */
final class HangingCloseServerMain
{
    private HangingCloseServerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final AcmOptions options = AcmOptions.read(Path.of(args[0]));
        final Duration bound = Duration.ofMillis(Long.parseLong(args[1]));
        final AcmPathQuerier hanging = new AcmPathQuerier()
        {
            @Override
            public void query(final AcmEndpoint endpoint, final byte[] template, final Completion completion)
            {
                completion.onError(0, "not asked in this test");
            }

            @Override
            public void close()
            {
                try
                {
                    new CountDownLatch(1).await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        };
        final AcmServer server = AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE,
            hanging, new AcmLog(System.out, 0));
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            try (AcmShutdownWatchdog watchdog = AcmShutdownWatchdog.arm("hanging-close server", bound,
                System::nanoTime, System.err, status -> Runtime.getRuntime().halt(status)))
            {
                server.close();
            }
        }, "acm-server-shutdown"));
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}

package dev.rdmacm.acm;

import java.nio.file.Path;

/**
 * A server process for {@link AcmServerLifecycleTest}, started as the CLI starts it (the public
 * {@code AcmServer.start}, {@link AcmUncaughtErrors}, a shutdown hook that closes it), in which a
 * thread other than the server's throws the {@link OutOfMemoryError} a flood once caused in the SA
 * client's thread, once the test writes a line to its stdin: a test double for what no peer can do on
 * demand.
 */
final class ErrorElsewhereServerMain
{
    private ErrorElsewhereServerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final AcmOptions options = AcmOptions.read(Path.of(args[0]));
        AcmUncaughtErrors.exitOnError("error-elsewhere server", System.err);
        final AcmServer server = AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE,
            AcmPathQuerier.NONE, new AcmLog(System.out, 0));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "acm-server-shutdown"));
        System.out.println("ready");
        System.in.read();
        Thread.ofPlatform().name("sa-client").start(() ->
        {
            throw new OutOfMemoryError("Java heap space (thrown by the test)");
        });
        Thread.sleep(Long.MAX_VALUE);
    }
}

package dev.rdmacm.acm;

import java.nio.file.Path;

/**
 * A server process for {@link AcmServerLifecycleTest}, started as the CLI starts it (the public
 * {@code AcmServer.start}, a shutdown hook that closes it), whose path querier throws the
 * {@link OutOfMemoryError} a flood once caused: a test double for what no peer can do on demand,
 * an {@link Error} on the server thread.
 */
final class FatalErrorServerMain
{
    private FatalErrorServerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final AcmOptions options = AcmOptions.read(Path.of(args[0]));
        final AcmPathQuerier failing = (endpoint, template, completion) ->
        {
            throw new OutOfMemoryError("Java heap space (thrown by the test's path querier)");
        };
        final AcmLog log = new AcmLog(System.out, 0);
        final AcmServer server = AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE,
            failing, log);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "acm-server-shutdown"));
        Thread.sleep(Long.MAX_VALUE);
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code ib_acme} (Debian package ibacm) and captures what it prints. */
public final class IbAcme
{
    public record Result(int exitCode, String output)
    {
    }

    private IbAcme()
    {
    }

    public static Result run(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Peers.requireCommand("ib_acme", "ibacm").toString());
        command.addAll(List.of(args));
        return exec(command);
    }

    /**
     * Runs ib_acme in a private mount namespace whose /run is a fresh tmpfs holding only
     * {@code ibacm-tcp.port} with {@code port}: ib_acme reads its TCP port from that fixed path, and the
     * machine's real /run must stay untouched.
     */
    public static Result runWithPrivateRun(final int port, final String... args)
    {
        Peers.requireRoot("a private mount namespace for /run");
        final String acme = Peers.requireCommand("ib_acme", "ibacm").toString();
        final String unshare = Peers.requireCommand("unshare", "util-linux").toString();
        final StringBuilder script = new StringBuilder("mount -t tmpfs tmpfs /run && printf '%s\\n' " + port
            + " > /run/ibacm-tcp.port && exec " + acme);
        for (final String arg : args)
        {
            script.append(" '").append(arg).append('\'');
        }
        return exec(List.of(unshare, "-m", "--propagation", "private", "sh", "-c", script.toString()));
    }

    private static Result exec(final List<String> command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new AssertionError("ib_acme did not finish in 30 s: " + command + "\n" + output);
            }
            return new Result(process.exitValue(), output);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot run " + command + ": " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    static String socket(final Path path)
    {
        return path.toString();
    }
}

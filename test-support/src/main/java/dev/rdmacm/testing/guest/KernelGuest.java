package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A real Linux kernel with Soft-RoCE for tests: Debian's own kernel package booted under QEMU, the
 * host's root file system shared read-only beneath a tmpfs overlay, and a read-write share that
 * carries jobs in and results out.
 * <pre>
 *   host                                        guest (QEMU, TCG; KVM only when a probe boot works)
 *   target/kernel-guest/NAME-TIME/
 *     initrd.gz  -------------------------->    stage 1 (init.sh): virtio, 9p, overlay; switch_root
 *     console.log  <------------------------    serial console
 *     share/  (9p, read-write)  <---------->    /run/rdmacm-guest: agent.sh runs jobs/N.sh in order
 *   /  (9p, read-only) -------------------->    /  (overlay on tmpfs): the same JDK, jars, tools
 * </pre>
 * Job 0 loads the spec's modules and builds its topology; {@link #run} adds one job each. Every step
 * is bounded: the boot by the spec's limit, each job by its own limit (enforced in the guest by GNU
 * {@code timeout}, and on the host by waiting no longer). QEMU is stopped through its own PID on
 * every way out: {@link #close}, a failed boot, a job the host gave up on, and JVM exit.
 * <p>
 * Without QEMU, busybox-static, kmod or apt, {@link #boot} skips the test with the reason, and fails
 * it with {@code CI=true}.
 */
public final class KernelGuest implements AutoCloseable
{
    /** Where the share is mounted inside the guest. */
    public static final String GUEST_SHARE = "/run/rdmacm-guest";
    private static final Duration SLACK = Duration.ofSeconds(10);
    private static final Duration POWEROFF_LIMIT = Duration.ofSeconds(20);
    private static final long POLL_MILLIS = 20;
    private static final AtomicInteger BOOTS = new AtomicInteger();

    private final GuestSpec spec;
    private final Path runDirectory;
    private final Path share;
    private final Process qemu;
    private final Thread killOnExit;
    private final Accelerator accelerator;
    private int nextJob;
    private Duration bootTime = Duration.ZERO;
    private boolean broken;

    private KernelGuest(final GuestSpec spec, final Path runDirectory, final Process qemu, final Accelerator accelerator)
    {
        this.spec = spec;
        this.runDirectory = runDirectory;
        this.share = runDirectory.resolve("share");
        this.qemu = qemu;
        this.accelerator = accelerator;
        this.killOnExit = new Thread(qemu::destroyForcibly, "kill QEMU " + qemu.pid());
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Fetches the kernel if needed, boots it and waits until the spec's modules and topology are in place. */
    public static KernelGuest boot(final GuestSpec spec)
    {
        return boot(spec, share ->
        {
        });
    }

    /**
     * {@link #boot(GuestSpec)}, running {@code whileBooting} on the share (the host side of
     * {@link #sharedDirectory()}) on this thread while QEMU boots: the host's own preparations for the
     * guest's jobs, such as compiling their programs into the share, then cost no time of their own.
     * When it fails, the guest is closed and its failure thrown.
     */
    public static KernelGuest boot(final GuestSpec spec, final Consumer<Path> whileBooting)
    {
        Peers.requireCommand("qemu-system-x86_64", "qemu-system-x86");
        final KernelPackage kernel = KernelPackage.ofTheDay();
        final Path runDirectory = createRunDirectory(spec.name());
        final Path initrd = GuestInitramfs.write(kernel, runDirectory.resolve("initrd.gz"));
        final Accelerator accelerator = Accelerator.choose(kernel, initrd, runDirectory);
        final Path share = runDirectory.resolve("share");
        writeShare(share, kernel, spec);
        final long started = System.nanoTime();
        final KernelGuest guest = new KernelGuest(spec, runDirectory, startQemu(spec, kernel, initrd, accelerator, runDirectory),
            accelerator);
        try
        {
            guest.submit(0, bootScript(spec), spec.bootLimit());
            whileBooting.accept(share);
            final GuestResult boot = guest.await(0, bootScript(spec), spec.bootLimit(), started);
            if (!boot.succeeded())
            {
                throw new AssertionError("the guest booted but its boot job failed\n" + boot.describe() + guest.consoleTail());
            }
            guest.bootTime = Duration.ofNanos(System.nanoTime() - started);
            return guest;
        }
        catch (final RuntimeException | Error ex)
        {
            guest.close();
            throw ex;
        }
    }

    /**
     * Runs {@code script} with {@code sh} in the guest, as root, in the host's current directory (the
     * module directory under Maven), with {@code CI} and every {@code RDMACM_*} variable of this JVM,
     * and {@code RDMACM_GUEST_SHARE}. Killed in the guest after {@code limit}.
     */
    public GuestResult run(final Duration limit, final String script)
    {
        if (broken || !qemu.isAlive())
        {
            throw new AssertionError("the guest " + spec.name() + " is no longer usable (an earlier job hung or QEMU exited)"
                + consoleTail());
        }
        final int job = nextJob;
        final StringBuilder body = new StringBuilder();
        for (final Map.Entry<String, String> variable : forwardedEnvironment().entrySet())
        {
            body.append("export ").append(variable.getKey()).append('=').append(shellQuoted(variable.getValue())).append('\n');
        }
        body.append("cd ").append(shellQuoted(Path.of("").toAbsolutePath().toString())).append(" || exit 1\n").append(script).append('\n');
        final long started = System.nanoTime();
        submit(job, body.toString(), limit);
        return await(job, body.toString(), limit, started);
    }

    /** Where the guest sees {@code hostPath}, a file under {@link #sharedDirectory()}. */
    public String guestPathOf(final Path hostPath)
    {
        final Path relative = share.relativize(hostPath.toAbsolutePath());
        if (relative.startsWith(".."))
        {
            throw new IllegalArgumentException(hostPath + " is not under the share " + share);
        }
        return GUEST_SHARE + "/" + relative;
    }

    /** The host side of the read-write share: files put here are seen by the guest, and the other way. */
    public Path sharedDirectory()
    {
        return share;
    }

    public String name()
    {
        return spec.name();
    }

    public Duration bootTime()
    {
        return bootTime;
    }

    public String accelerator()
    {
        return accelerator.name().toLowerCase();
    }

    public long qemuPid()
    {
        return qemu.pid();
    }

    /** The last lines the guest wrote to its serial console. */
    public String consoleTail()
    {
        try
        {
            final List<String> lines = Files.readAllLines(runDirectory.resolve("console.log"), StandardCharsets.ISO_8859_1);
            final List<String> qemuLines = Files.readAllLines(runDirectory.resolve("qemu.log"), StandardCharsets.ISO_8859_1);
            return "\n--- guest console (" + runDirectory.resolve("console.log") + "), last lines ---\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()))
                + (qemuLines.isEmpty() ? "" : "\n--- qemu ---\n" + String.join("\n", qemuLines));
        }
        catch (final IOException ex)
        {
            return "\n(no guest console: " + ex.getMessage() + ")";
        }
    }

    /** Powers the guest off, and kills QEMU through its PID if it has not exited within 20 s. */
    @Override
    public void close()
    {
        try
        {
            if (qemu.isAlive())
            {
                Files.writeString(share.resolve("poweroff"), "");
                if (!qemu.waitFor(broken ? 1 : POWEROFF_LIMIT.toSeconds(), TimeUnit.SECONDS))
                {
                    qemu.destroyForcibly();
                    qemu.waitFor(POWEROFF_LIMIT.toSeconds(), TimeUnit.SECONDS);
                }
            }
        }
        catch (final IOException ex)
        {
            qemu.destroyForcibly();
        }
        catch (final InterruptedException ex)
        {
            qemu.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(killOnExit);
            }
            catch (final IllegalStateException shuttingDown)
            {
                // the hook is running or about to: QEMU is being killed anyway
            }
        }
    }

    @Override
    public String toString()
    {
        return "KernelGuest[" + spec.name() + ", qemu pid " + qemu.pid() + ", " + accelerator() + ", " + runDirectory + "]";
    }

    /** Hands job {@code job} to the guest's agent, which runs it once the jobs before it have ended. */
    private void submit(final int job, final String script, final Duration limit)
    {
        final Path jobs = share.resolve("jobs");
        try
        {
            Files.writeString(jobs.resolve(job + ".sh"), script);
            Files.writeString(jobs.resolve(job + ".limit"), Long.toString(Math.max(1, limit.toSeconds())));
            Files.writeString(jobs.resolve(job + ".go"), "");
            nextJob = job + 1;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot hand job " + job + " to guest " + spec.name() + " through " + jobs + ": " + ex, ex);
        }
    }

    /** Waits for {@link #submit submitted} job {@code job} to end, at most {@code limit} (and a slack) from {@code startedNanos}. */
    private GuestResult await(final int job, final String script, final Duration limit, final long startedNanos)
    {
        final Path jobs = share.resolve("jobs");
        try
        {
            final Path status = jobs.resolve(job + ".status");
            final long deadline = startedNanos + limit.plus(SLACK).toNanos();
            String written;
            while ((written = statusLine(status)) == null)
            {
                if (!qemu.isAlive())
                {
                    broken = true;
                    throw new AssertionError("QEMU exited (status " + qemu.exitValue() + ") before job " + job + " of guest "
                        + spec.name() + " finished" + consoleTail());
                }
                if (System.nanoTime() - deadline > 0)
                {
                    broken = true;
                    qemu.destroyForcibly();
                    throw new AssertionError("job " + job + " of guest " + spec.name() + " did not finish within " + limit.toSeconds()
                        + " s (+" + SLACK.toSeconds() + " s); QEMU (pid " + qemu.pid() + ") was killed" + consoleTail());
                }
                Thread.sleep(POLL_MILLIS);
            }
            return new GuestResult(firstLine(script, job), Integer.parseInt(written.strip()),
                Files.readString(jobs.resolve(job + ".out"), StandardCharsets.UTF_8),
                Files.readString(jobs.resolve(job + ".err"), StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - startedNanos));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot exchange job " + job + " with guest " + spec.name() + " through " + jobs + ": " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for job " + job + " of guest " + spec.name(), ex);
        }
    }

    /**
     * The job's status line once the agent has written it whole, else null: the agent writes it with
     * one {@code echo} (a rename would cost a process per job), so a file without its newline is one
     * the agent is still writing.
     */
    private static String statusLine(final Path status) throws IOException
    {
        if (!Files.exists(status))
        {
            return null;
        }
        final String line = Files.readString(status);
        return line.endsWith("\n") ? line : null;
    }

    private static String firstLine(final String script, final int job)
    {
        final List<String> lines = script.lines().filter(l -> !l.startsWith("export ") && !l.startsWith("cd ")).toList();
        return "job " + job + ": " + (lines.isEmpty() ? "" : lines.get(0)) + (lines.size() > 1 ? " ..." : "");
    }

    private static String bootScript(final GuestSpec spec)
    {
        return "modprobe -a " + String.join(" ", spec.modules()) + " || { echo 'modprobe failed' >&2; exit 1; }\n"
            + spec.topology().script();
    }

    private static Map<String, String> forwardedEnvironment()
    {
        final Map<String, String> forwarded = new TreeMap<>();
        for (final Map.Entry<String, String> variable : System.getenv().entrySet())
        {
            if (variable.getKey().equals("CI") || variable.getKey().startsWith("RDMACM_"))
            {
                forwarded.put(variable.getKey(), variable.getValue());
            }
        }
        forwarded.put("RDMACM_GUEST_SHARE", GUEST_SHARE);
        return forwarded;
    }

    static String shellQuoted(final String value)
    {
        return "'" + value.replace("'", "'\\''") + "'";
    }

    private static Path createRunDirectory(final String name)
    {
        final Path base = Path.of("target", "kernel-guest").toAbsolutePath();
        final String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        try
        {
            Files.createDirectories(base);
            return Files.createDirectory(base.resolve(name + "-" + stamp + "-" + ProcessHandle.current().pid() + "-"
                + BOOTS.incrementAndGet()));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot create the guest run directory under " + base + ": " + ex, ex);
        }
    }

    private static void writeShare(final Path share, final KernelPackage kernel, final GuestSpec spec)
    {
        try
        {
            Files.createDirectories(share.resolve("jobs"));
            final Path agent = share.resolve("agent.sh");
            Files.write(agent, GuestInitramfs.resource("agent.sh"));
            Files.writeString(share.resolve("guest.env"), "GUEST_RELEASE=" + shellQuoted(kernel.release()) + "\n"
                + "GUEST_MODULES=" + shellQuoted(kernel.modules().toAbsolutePath().toString()) + "\n"
                + "GUEST_HOSTNAME=" + shellQuoted(spec.name()) + "\n"
                + "GUEST_LIFETIME=" + spec.lifetime().toSeconds() + "\n");
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot prepare the guest share " + share + ": " + ex, ex);
        }
    }

    private static Process startQemu(
        final GuestSpec spec, final KernelPackage kernel, final Path initrd, final Accelerator accelerator, final Path runDirectory)
    {
        final List<String> command = new ArrayList<>(List.of("qemu-system-x86_64", "-name", "rdmacm-" + spec.name()));
        command.addAll(accelerator.arguments());
        command.addAll(List.of(
            "-m", Integer.toString(spec.memoryMib()), "-smp", Integer.toString(spec.cpus()),
            "-display", "none", "-nodefaults", "-no-user-config", "-no-reboot",
            "-serial", "file:" + runDirectory.resolve("console.log"), "-monitor", "none",
            "-kernel", kernel.vmlinuz().toString(), "-initrd", initrd.toString(),
            "-append", "console=ttyS0 panic=-1 loglevel=3",
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", "local,path=" + runDirectory.resolve("share") + ",mount_tag=share,security_model=none,multidevs=remap"));
        command.addAll(spec.qemuArguments());
        try
        {
            return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(runDirectory.resolve("qemu.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot start QEMU (" + String.join(" ", command) + "): " + ex, ex);
        }
    }
}

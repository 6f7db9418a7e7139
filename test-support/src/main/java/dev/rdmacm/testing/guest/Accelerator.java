package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.HostCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * TCG software emulation, or KVM when a probe boot proves it works. On the project's machines KVM
 * opens but the guest hangs right after kernel decompression, so KVM is used only when a probe guest
 * (stage 1 powers off at once on {@code rdmacm.probe}) prints its marker within {@link #PROBE_LIMIT}.
 * The verdict is kept in the cache, keyed by the host kernel, the QEMU version and the guest kernel,
 * so the probe costs its seconds once per machine. {@code RDMACM_GUEST_ACCEL=tcg|kvm} skips it.
 */
enum Accelerator
{
    TCG("-accel", "tcg", "-cpu", "max"),
    KVM("-accel", "kvm", "-cpu", "host,-arch-capabilities");

    static final Duration PROBE_LIMIT = Duration.ofSeconds(6);
    private static final String PROBE_MARKER = "RDMACM-GUEST-PROBE-OK";

    private final List<String> arguments;

    Accelerator(final String... arguments)
    {
        this.arguments = List.of(arguments);
    }

    List<String> arguments()
    {
        return arguments;
    }

    static synchronized Accelerator choose(final KernelPackage kernel, final Path initrd, final Path workDir)
    {
        final String forced = System.getenv("RDMACM_GUEST_ACCEL");
        if (forced != null && !forced.isBlank())
        {
            return switch (forced)
            {
                case "tcg" -> TCG;
                case "kvm" -> KVM;
                default -> throw new AssertionError("RDMACM_GUEST_ACCEL=" + forced + ": must be tcg or kvm");
            };
        }
        final Path kvm = Path.of("/dev/kvm");
        if (!Files.isReadable(kvm) || !Files.isWritable(kvm))
        {
            return TCG;
        }
        final String key = "host " + HostCommand.run(Duration.ofSeconds(10), "uname", "-r").output().strip() + ", "
            + HostCommand.run(Duration.ofSeconds(10), "qemu-system-x86_64", "--version").output().lines().findFirst().orElse("?")
            + ", guest " + kernel.release();
        final Path verdict = KernelPackage.cacheDirectory().resolve("kvm-probe");
        try
        {
            if (Files.exists(verdict))
            {
                final List<String> lines = Files.readAllLines(verdict);
                if (lines.size() == 2 && lines.get(0).equals(key))
                {
                    return valueOf(lines.get(1));
                }
            }
            final Accelerator chosen = probeKvm(kernel, initrd, workDir) ? KVM : TCG;
            Files.write(verdict, List.of(key, chosen.name()));
            return chosen;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read or write the KVM probe verdict " + verdict + ": " + ex, ex);
        }
    }

    private static boolean probeKvm(final KernelPackage kernel, final Path initrd, final Path workDir) throws IOException
    {
        final Path console = workDir.resolve("kvm-probe.log");
        final List<String> command = new ArrayList<>(List.of("qemu-system-x86_64", "-name", "rdmacm-kvm-probe"));
        command.addAll(KVM.arguments);
        command.addAll(List.of("-m", "256", "-smp", "1", "-display", "none", "-nodefaults", "-no-user-config", "-no-reboot",
            "-serial", "file:" + console, "-monitor", "none", "-kernel", kernel.vmlinuz().toString(), "-initrd", initrd.toString(),
            "-append", "console=ttyS0 panic=-1 loglevel=3 rdmacm.probe"));
        try
        {
            HostCommand.run(PROBE_LIMIT, null, command);
        }
        catch (final AssertionError hungOrFailed)
        {
            return false; // the known failure: the guest hangs and the probe is killed at its limit
        }
        return Files.exists(console) && Files.readString(console).contains(PROBE_MARKER);
    }
}

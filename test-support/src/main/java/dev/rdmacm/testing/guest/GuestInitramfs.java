package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.Peers;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * The guest's initramfs: a static busybox, the modules that reach the host's root (virtio PCI, 9p
 * over virtio, overlayfs) in dependency order, and the stage-1 {@code init.sh}. Everything else the
 * guest runs comes from the host's own root file system.
 * <pre>
 *   /init            stage 1 (resource init.sh)
 *   /bin/busybox     from busybox-static; init installs its applets
 *   /modules.list    module names, one per line, in load order
 *   /modules/NAME.ko from the unpacked Debian kernel package
 * </pre>
 */
final class GuestInitramfs
{
    /** In load order, as {@code modprobe --show-depends} lists them for virtio_pci, 9pnet_virtio, 9p, overlay. */
    static final List<String> STAGE_ONE_MODULES = List.of(
        "virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev", "virtio_pci",
        "9pnet", "9pnet_virtio", "netfs", "fscache", "9p", "overlay");
    private static final Path BUSYBOX = Path.of("/bin/busybox");

    private GuestInitramfs()
    {
    }

    /** Writes the gzip-compressed initramfs for {@code kernel} to {@code target}. */
    static Path write(final KernelPackage kernel, final Path target)
    {
        Peers.requireFile(BUSYBOX.toString(), "busybox-static");
        try (CpioNewcWriter cpio = new CpioNewcWriter(new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(target)))))
        {
            cpio.directory("bin").directory("modules").directory("proc").directory("sys").directory("dev");
            cpio.file("bin/busybox", 0755, Files.readAllBytes(BUSYBOX));
            cpio.file("init", 0755, resource("init.sh"));
            cpio.file("modules.list", 0644, (String.join("\n", STAGE_ONE_MODULES) + "\n").getBytes(StandardCharsets.US_ASCII));
            for (final String module : STAGE_ONE_MODULES)
            {
                cpio.file("modules/" + module + ".ko", 0644, Files.readAllBytes(kernel.module(module)));
            }
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write the guest initramfs " + target + ": " + ex, ex);
        }
        return target;
    }

    /** A script shipped beside this class (init.sh, agent.sh). */
    static byte[] resource(final String name)
    {
        try (InputStream in = GuestInitramfs.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new AssertionError("the test jar lacks " + name + " beside " + GuestInitramfs.class.getName());
            }
            return in.readAllBytes();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read " + name + ": " + ex, ex);
        }
    }
}

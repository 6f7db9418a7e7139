package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's own kernel, unpacked into a cache and never installed: the {@code linux-image-amd64}
 * dependency of the day, fetched with {@code apt-get download}, unpacked with {@code dpkg-deb -x} and
 * indexed with {@code depmod -b}. The host's kernel, {@code /boot} and {@code /lib/modules} are never
 * touched.
 * <p>
 * The cache is {@code $RDMACM_GUEST_CACHE}, else {@code /var/cache/rdmacm-java/kernel-guest} for root,
 * else {@code ~/.cache/rdmacm-java/kernel-guest}. One directory per package name holds the unpacked
 * tree; a {@code ready} marker is written last, so a half-unpacked tree is never used. Concurrent
 * builds (two Maven runs) serialise on a lock file.
 */
public record KernelPackage(String packageName, String release, Path root)
{
    private static final Duration APT_LIMIT = Duration.ofMinutes(5);
    private static final Pattern IMAGE_DEPENDENCY = Pattern.compile("Depends: (linux-image-(\\d[^\\s]*-amd64))");
    private static final String META_PACKAGE = "linux-image-amd64";
    private static KernelPackage ofThisJvm;

    public Path vmlinuz()
    {
        return root.resolve("boot/vmlinuz-" + release);
    }

    public Path modules()
    {
        return root.resolve("lib/modules/" + release);
    }

    /** The host path of module {@code name} ({@code virtio_pci}, {@code 9p}...), as modinfo finds it. */
    public Path module(final String name)
    {
        final HostCommand.Outcome found = HostCommand.run(Duration.ofSeconds(30), "modinfo", "-b", root.toString(), "-k", release,
            "-n", name).orFail("finding module " + name + " in " + modules());
        return Path.of(found.output().strip());
    }

    /**
     * The package of the day, fetched and unpacked into the cache on first use; asked of apt once per
     * JVM (each boot and suite asks, and apt-cache takes seconds on a loaded machine).
     */
    public static KernelPackage ofTheDay()
    {
        synchronized (KernelPackage.class)
        {
            if (ofThisJvm == null)
            {
                ofThisJvm = askedOfApt();
            }
            return ofThisJvm;
        }
    }

    private static KernelPackage askedOfApt()
    {
        Peers.requireCommand("apt-cache", "apt");
        Peers.requireCommand("apt-get", "apt");
        Peers.requireCommand("dpkg-deb", "dpkg");
        Peers.requireCommand("depmod", "kmod");
        Peers.requireCommand("modinfo", "kmod");
        final Path cache = cacheDirectory();
        final String packageName = currentPackageName(cache);
        final Path dir = cache.resolve(packageName);
        final Path ready = dir.resolve("ready");
        if (!Files.exists(ready))
        {
            fetchAndUnpack(cache, packageName, dir, ready);
        }
        return fromCache(packageName, dir);
    }

    static Path cacheDirectory()
    {
        final String configured = System.getenv("RDMACM_GUEST_CACHE");
        final Path dir;
        if (configured != null && !configured.isBlank())
        {
            dir = Path.of(configured);
        }
        else if ("root".equals(System.getProperty("user.name")))
        {
            dir = Path.of("/var/cache/rdmacm-java/kernel-guest");
        }
        else
        {
            dir = Path.of(System.getProperty("user.home"), ".cache", "rdmacm-java", "kernel-guest");
        }
        if (dir.toAbsolutePath().startsWith("/run") || dir.toAbsolutePath().startsWith("/proc")
            || dir.toAbsolutePath().startsWith("/sys") || dir.toAbsolutePath().startsWith("/dev"))
        {
            throw new AssertionError("RDMACM_GUEST_CACHE=" + dir + ": the guest reads the unpacked kernel's modules through the "
                + "shared host root, where /run, /proc, /sys and /dev are its own; choose a directory elsewhere");
        }
        try
        {
            return Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot create the kernel-guest cache " + dir + " (set RDMACM_GUEST_CACHE): " + ex, ex);
        }
    }

    /**
     * {@code linux-image-6.1.0-NN-amd64}, from {@code apt-cache depends linux-image-amd64}. Without package
     * lists it runs {@code apt-get update} once (root only); offline, it falls back to the newest package
     * already in the cache.
     */
    private static String currentPackageName(final Path cache)
    {
        Optional<String> name = dependencyOfMetaPackage();
        if (name.isEmpty() && "root".equals(System.getProperty("user.name")))
        {
            HostCommand.run(APT_LIMIT, "apt-get", "update");
            name = dependencyOfMetaPackage();
        }
        if (name.isPresent())
        {
            return name.get();
        }
        try (Stream<Path> entries = Files.list(cache))
        {
            return entries.filter(p -> Files.exists(p.resolve("ready")))
                .map(p -> p.getFileName().toString())
                .max(Comparator.naturalOrder())
                .orElseThrow(() -> new AssertionError("apt-cache cannot name the package behind " + META_PACKAGE
                    + " (no package lists? run apt-get update) and the cache " + cache + " holds no unpacked kernel"));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list the kernel-guest cache " + cache + ": " + ex, ex);
        }
    }

    private static Optional<String> dependencyOfMetaPackage()
    {
        final HostCommand.Outcome depends = HostCommand.run(Duration.ofSeconds(60), "apt-cache", "depends", META_PACKAGE);
        final Matcher matcher = IMAGE_DEPENDENCY.matcher(depends.output());
        return depends.succeeded() && matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static synchronized void fetchAndUnpack(final Path cache, final String packageName, final Path dir, final Path ready)
    {
        try (FileChannel lockFile = FileChannel.open(cache.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock ignored = lockFile.lock())
        {
            if (Files.exists(ready))
            {
                return; // another build unpacked it while this one waited for the lock
            }
            deleteTree(dir);
            final Path download = Files.createDirectories(dir.resolve("download"));
            HostCommand.run(APT_LIMIT, download, List.of("apt-get", "download", packageName))
                .orFail("downloading Debian's kernel package " + packageName);
            final Path deb;
            try (Stream<Path> files = Files.list(download))
            {
                deb = files.filter(p -> p.toString().endsWith(".deb")).findFirst()
                    .orElseThrow(() -> new AssertionError("apt-get download " + packageName + " left no .deb in " + download));
            }
            final Path root = dir.resolve("root");
            HostCommand.run(APT_LIMIT, "dpkg-deb", "-x", deb.toString(), root.toString()).orFail("unpacking " + deb);
            final String release = releaseOf(root);
            HostCommand.run(APT_LIMIT, "depmod", "-b", root.toString(), release).orFail("indexing the modules of " + release);
            deleteTree(download);
            Files.writeString(ready, release + "\n");
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot fetch and unpack " + packageName + " into " + dir + ": " + ex, ex);
        }
    }

    private static KernelPackage fromCache(final String packageName, final Path dir)
    {
        final Path root = dir.resolve("root");
        final KernelPackage kernel = new KernelPackage(packageName, releaseOf(root), root);
        if (!Files.isRegularFile(kernel.vmlinuz()) || !Files.isRegularFile(kernel.modules().resolve("modules.dep")))
        {
            throw new AssertionError("the cached kernel " + dir + " lacks " + kernel.vmlinuz() + " or modules.dep; delete "
                + dir + " to fetch it again");
        }
        return kernel;
    }

    private static String releaseOf(final Path root)
    {
        try (Stream<Path> releases = Files.list(root.resolve("lib/modules")))
        {
            return releases.map(p -> p.getFileName().toString()).findFirst()
                .orElseThrow(() -> new AssertionError("no lib/modules/<release> in " + root));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read " + root.resolve("lib/modules") + ": " + ex, ex);
        }
    }

    static void deleteTree(final Path dir)
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot delete " + dir + ": " + ex, ex);
        }
    }
}

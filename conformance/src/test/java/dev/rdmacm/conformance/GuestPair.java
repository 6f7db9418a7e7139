package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.KernelGuest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The two conformance guests, booted at once on one {@link GuestWire}: one without a kernel CM, where
 * this project's CM runs, and one with the kernel's CM, its peer. Booting and running their suites
 * side by side overlaps the time each guest spends waiting (boots, neighbour and CM timeouts) with the
 * other's work.
 */
record GuestPair(KernelGuest userspace, KernelGuest kernel) implements AutoCloseable
{
    /** The whole guest part's limit, {@link SoftRoceGuestsTest}'s timeout. */
    static final int LIMIT_MINUTES = 35;

    /**
     * A guest of the pair powers itself off once idle past this uptime (a host JVM killed outright leaves
     * no guest behind). It outlives every runner of the pair, so that only a runner's own timeout ends a
     * slow run: with the default 20 minutes, on 2026-12-02 the kernel guest powered off between two jobs
     * of the udaddy case, 20 minutes into a slow guest part, and the case failed as if a job had hung.
     */
    static final Duration LIFETIME = Duration.ofMinutes(LIMIT_MINUTES + 10);

    /**
     * The vCPUs of each guest when the pair runs the suites. Under TCG a vCPU is a host thread, and CI's host has
     * 2 cores: two guests of 2 vCPUs put 4 busy threads on them, and a vCPU that waits for the others (an IPI, a
     * TLB flush, TCG's exclusive sections) waits for one the host has descheduled. With one each, back to back on
     * this machine (2026-12-06, 22:12 to 22:54), the guest part took 443.2 and 410.8 s against 556.4 and 477.4 s
     * with two, the boots 15 to 27 s against 28 to 52 (docs/testing.md, "Session 13"). The benchmarks keep the
     * specs' 2 vCPUs: their ratios were all measured on two, and a connection's two sides need them.
     */
    static final int SUITE_CPUS = 1;

    /** {@code spec} as the suites' pair boots it: {@link #SUITE_CPUS} vCPUs. */
    static GuestSpec forSuites(final GuestSpec spec)
    {
        return spec.size(spec.memoryMib(), SUITE_CPUS);
    }

    /** Boots both; when either fails, the other is closed and the first failure thrown. */
    static GuestPair boot(final GuestWire wire)
    {
        try (ExecutorService threads = Executors.newFixedThreadPool(2, Thread.ofPlatform().name("guest-boot-", 0).factory()))
        {
            final CompletableFuture<KernelGuest> userspace =
                CompletableFuture.supplyAsync(() -> KernelGuest.boot(UserspaceGuestSuite.spec(wire)), threads);
            final CompletableFuture<KernelGuest> kernel =
                CompletableFuture.supplyAsync(() -> KernelGuest.boot(KernelGuestSuite.spec(wire)), threads);
            try
            {
                CompletableFuture.allOf(userspace, kernel).join();
                return new GuestPair(userspace.join(), kernel.join());
            }
            catch (final CompletionException ex)
            {
                userspace.thenAccept(KernelGuest::close);
                kernel.thenAccept(KernelGuest::close);
                throw unwrapped(ex);
            }
        }
    }

    /**
     * What one guest of the pair does on its own: its spec, what the host puts into its share while it
     * boots, and what runs in it as soon as it is up, while the other may still be booting or busy.
     */
    record Side<T>(GuestSpec spec, Consumer<Path> whileBooting, Function<KernelGuest, T> alone)
    {
    }

    /** Both guests, and what each did alone. */
    record Started<T>(GuestPair guests, Both<T> alone)
    {
    }

    /**
     * Boots both at once and runs each one's {@link Side#alone} in its own thread as soon as it is up:
     * neither waits for the other's boot, and the faster one's work overlaps the slower one's. When
     * either fails, both are closed (once both threads have ended) and the first failure thrown.
     */
    static <T> Started<T> start(final Side<T> userspace, final Side<T> kernel)
    {
        final CompletableFuture<KernelGuest> userspaceGuest = new CompletableFuture<>();
        final CompletableFuture<KernelGuest> kernelGuest = new CompletableFuture<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(2, Thread.ofPlatform().name("guest-", 0).factory()))
        {
            final CompletableFuture<T> first = CompletableFuture.supplyAsync(() -> bootAndRun(userspace, userspaceGuest), threads);
            final CompletableFuture<T> second = CompletableFuture.supplyAsync(() -> bootAndRun(kernel, kernelGuest), threads);
            try
            {
                CompletableFuture.allOf(first, second).join();
                return new Started<>(new GuestPair(userspaceGuest.join(), kernelGuest.join()), new Both<>(first.join(), second.join()));
            }
            catch (final CompletionException ex)
            {
                // both threads have ended: close whatever booted, then throw the failure allOf reported
                Stream.of(userspaceGuest, kernelGuest).filter(guest -> guest.isDone() && !guest.isCompletedExceptionally())
                    .forEach(guest -> guest.join().close());
                throw unwrapped(ex);
            }
        }
    }

    private static <T> T bootAndRun(final Side<T> side, final CompletableFuture<KernelGuest> booted)
    {
        final KernelGuest guest;
        try
        {
            guest = KernelGuest.boot(side.spec(), side.whileBooting());
        }
        catch (final RuntimeException | Error ex)
        {
            booted.completeExceptionally(ex);
            throw ex;
        }
        booted.complete(guest);
        return side.alone().apply(guest);
    }

    /** Runs {@code onUserspace} and {@code onKernel} at once, one thread per guest. */
    <T> Both<T> inBoth(final Function<KernelGuest, T> onUserspace, final Function<KernelGuest, T> onKernel)
    {
        try (ExecutorService threads = Executors.newFixedThreadPool(2, Thread.ofPlatform().name("guest-suite-", 0).factory()))
        {
            final CompletableFuture<T> first = CompletableFuture.supplyAsync(() -> onUserspace.apply(userspace), threads);
            final CompletableFuture<T> second = CompletableFuture.supplyAsync(() -> onKernel.apply(kernel), threads);
            try
            {
                return new Both<>(first.join(), second.join());
            }
            catch (final CompletionException ex)
            {
                throw unwrapped(ex);
            }
        }
    }

    /** What each guest gave. */
    record Both<T>(T userspace, T kernel)
    {
    }

    @Override
    public void close()
    {
        try
        {
            userspace.close();
        }
        finally
        {
            kernel.close();
        }
    }

    private static RuntimeException unwrapped(final CompletionException ex)
    {
        return switch (ex.getCause())
        {
            case final RuntimeException runtime -> runtime;
            case final Error error -> throw error;
            case null, default -> ex;
        };
    }
}

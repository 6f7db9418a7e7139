package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.KernelGuest;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The two conformance guests, booted at once on one {@link GuestWire}: one without a kernel CM, where
 * this project's CM runs, and one with the kernel's CM, its peer. Booting and running their suites
 * side by side overlaps the time each guest spends waiting (boots, neighbour and CM timeouts) with the
 * other's work.
 */
record GuestPair(KernelGuest userspace, KernelGuest kernel) implements AutoCloseable
{
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

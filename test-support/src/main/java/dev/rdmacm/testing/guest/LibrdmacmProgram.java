package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A C program on the real librdmacm that a class running inside a {@link KernelGuest} runs beside its own calls,
 * the same steps with the same options: compiled with gcc on the host into the guest's share while the guest boots
 * ({@link #compile}, from {@code NAME.c} beside its class), found there inside the guest ({@link #inGuest}).
 */
public final class LibrdmacmProgram
{
    private final Class<?> owner;
    private final String name;
    private final List<String> libraries;

    private LibrdmacmProgram(final Class<?> owner, final String name, final List<String> libraries)
    {
        this.owner = owner;
        this.name = name;
        this.libraries = libraries;
    }

    /**
     * @param owner     the class whose resource {@code NAME.c} is, the class that runs it.
     * @param name      the program's name, in the share.
     * @param libraries what it links besides the C library ({@code -lrdmacm}, ...).
     */
    public static LibrdmacmProgram of(final Class<?> owner, final String name, final String... libraries)
    {
        return new LibrdmacmProgram(owner, name, List.of(libraries));
    }

    /** On the host: compiles it into {@code share} ({@code -O0 -Wall}), once for the same source and flags. */
    public Path compile(final Path share)
    {
        Peers.requireFile("/usr/include/rdma/rdma_cma.h", "librdmacm-dev");
        final String[] flags = Stream.concat(Stream.of("-O0", "-Wall"), libraries.stream()).toArray(String[]::new);
        return CProgram.compile(owner, name + ".c", share, name, flags);
    }

    /** Inside the guest: the program {@link #compile} put in the share (the test skips, or fails with CI, elsewhere). */
    public Path inGuest()
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        return Path.of(share, name);
    }
}

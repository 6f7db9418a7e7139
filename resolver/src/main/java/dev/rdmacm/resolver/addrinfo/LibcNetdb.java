package dev.rdmacm.resolver.addrinfo;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The glibc name-service entry points librdmacm itself calls ({@code getaddrinfo}, {@code freeaddrinfo},
 * {@code gai_strerror}), looked up once. Going through glibc rather than Java's resolver keeps the EAI
 * codes, {@code /etc/services} names, numeric-service truncation, address order and scope ids identical
 * to librdmacm's.
 * <p>
 * {@code struct addrinfo} on x86_64 Linux, 48 bytes:
 * <pre>
 *  0               4               8              12              16              20              24
 * +---------------+---------------+---------------+---------------+---------------+---------------+
 * | ai_flags      | ai_family     | ai_socktype   | ai_protocol   | ai_addrlen    | (padding)     |
 * +---------------+---------------+---------------+---------------+---------------+---------------+
 * | ai_addr (pointer)             | ai_canonname (pointer)        | ai_next (pointer)             |
 * +-------------------------------+-------------------------------+-------------------------------+
 * </pre>
 */
final class LibcNetdb
{
    static final int ADDRINFO_SIZE = 48;
    static final int AI_FLAGS_OFFSET = 0;
    static final int AI_FAMILY_OFFSET = 4;
    static final int AI_SOCKTYPE_OFFSET = 8;
    static final int AI_PROTOCOL_OFFSET = 12;
    static final int AI_ADDRLEN_OFFSET = 16;
    static final int AI_ADDR_OFFSET = 24;
    static final int AI_CANONNAME_OFFSET = 32;
    static final int AI_NEXT_OFFSET = 40;

    static final int AI_PASSIVE = 0x0001;
    static final int AI_NUMERICHOST = 0x0004;
    static final int SOCK_STREAM = 1;
    static final int SOCK_DGRAM = 2;
    static final int IPPROTO_TCP = 6;
    static final int IPPROTO_UDP = 17;

    static final StructLayout CAPTURE_STATE = Linker.Option.captureStateLayout();
    static final VarHandle ERRNO = CAPTURE_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** {@code int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)}. */
    static final MethodHandle GETADDRINFO;
    /** {@code void freeaddrinfo(struct addrinfo *res)}. */
    static final MethodHandle FREEADDRINFO;
    /** {@code const char *gai_strerror(int errcode)}. */
    static final MethodHandle GAI_STRERROR;

    /** Why the handles are missing: native access denied to this code, else null. */
    private static final IllegalCallerException DENIED;

    static
    {
        MethodHandle getaddrinfo = null;
        MethodHandle freeaddrinfo = null;
        MethodHandle gaiStrerror = null;
        IllegalCallerException denied = null;
        try
        {
            final Linker linker = Linker.nativeLinker();
            final SymbolLookup libc = linker.defaultLookup();
            getaddrinfo = linker.downcallHandle(libc.findOrThrow("getaddrinfo"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS),
                Linker.Option.captureCallState("errno"));
            freeaddrinfo = linker.downcallHandle(libc.findOrThrow("freeaddrinfo"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            gaiStrerror = linker.downcallHandle(libc.findOrThrow("gai_strerror"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        }
        catch (final IllegalCallerException ex)
        {
            denied = ex;
        }
        GETADDRINFO = getaddrinfo;
        FREEADDRINFO = freeaddrinfo;
        GAI_STRERROR = gaiStrerror;
        DENIED = denied;
    }

    /** Fails with a message that says what to do when the JVM denies native access to this code. */
    static void requireNativeAccess()
    {
        if (DENIED != null)
        {
            throw new IllegalStateException("native access to libc (getaddrinfo) is denied: start the JVM with " +
                "--enable-native-access=ALL-UNNAMED (the rdmacm launcher and jar manifest do)", DENIED);
        }
    }

    private LibcNetdb()
    {
    }
}

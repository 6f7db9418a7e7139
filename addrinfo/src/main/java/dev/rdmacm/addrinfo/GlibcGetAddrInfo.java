package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * glibc's {@code getaddrinfo} through {@link Libc}, reduced to what librdmacm uses: the first result or
 * the code. Going through glibc rather than Java's resolver keeps the EAI codes, {@code /etc/services}
 * names, numeric-service truncation, address order and scope ids identical to librdmacm's. The glibc
 * list is freed on every path, including when reading it fails.
 */
final class GlibcGetAddrInfo
{
    GlibcAnswer firstResult(final String node, final String service, final GlibcHints hints)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment nodeC = node == null ? MemorySegment.NULL : arena.allocateFrom(node);
            final MemorySegment serviceC = service == null ? MemorySegment.NULL : arena.allocateFrom(service);
            final MemorySegment hintsC = hints == null ? MemorySegment.NULL : hintsStruct(arena, hints);
            final MemorySegment resultHolder = arena.allocate(ValueLayout.ADDRESS);
            final Libc.CallState state = new Libc.CallState(arena);
            final int code = Libc.getaddrinfo(state, nodeC, serviceC, hintsC, resultHolder);
            if (code != 0)
            {
                return new GlibcAnswer.Failed(code, state.errno());
            }
            final MemorySegment list = resultHolder.get(ValueLayout.ADDRESS, 0);
            try
            {
                return first(list.reinterpret(LibcNetdb.ADDRINFO_SIZE));
            }
            finally
            {
                Libc.freeaddrinfo(list);
            }
        }
    }

    /** {@code gai_strerror(code)}: glibc's own text, so the CLI prints what C programs print. */
    String gaiStrerror(final int code)
    {
        return Libc.gaiStrerror(code);
    }

    private static MemorySegment hintsStruct(final Arena arena, final GlibcHints hints)
    {
        final MemorySegment struct = arena.allocate(LibcNetdb.ADDRINFO_SIZE, 8);
        struct.set(ValueLayout.JAVA_INT, LibcNetdb.AI_FLAGS_OFFSET, hints.flags());
        struct.set(ValueLayout.JAVA_INT, LibcNetdb.AI_FAMILY_OFFSET, hints.family());
        struct.set(ValueLayout.JAVA_INT, LibcNetdb.AI_SOCKTYPE_OFFSET, hints.socktype());
        struct.set(ValueLayout.JAVA_INT, LibcNetdb.AI_PROTOCOL_OFFSET, hints.protocol());
        return struct;
    }

    private static GlibcAnswer.First first(final MemorySegment ai)
    {
        final int addrLength = ai.get(ValueLayout.JAVA_INT, LibcNetdb.AI_ADDRLEN_OFFSET);
        final MemorySegment addr = ai.get(ValueLayout.ADDRESS, LibcNetdb.AI_ADDR_OFFSET);
        final MemorySegment canonName = ai.get(ValueLayout.ADDRESS, LibcNetdb.AI_CANONNAME_OFFSET);
        return new GlibcAnswer.First(
            ai.get(ValueLayout.JAVA_INT, LibcNetdb.AI_FLAGS_OFFSET),
            ai.get(ValueLayout.JAVA_INT, LibcNetdb.AI_FAMILY_OFFSET),
            ai.get(ValueLayout.JAVA_INT, LibcNetdb.AI_SOCKTYPE_OFFSET),
            ai.get(ValueLayout.JAVA_INT, LibcNetdb.AI_PROTOCOL_OFFSET),
            addr.equals(MemorySegment.NULL) ? new byte[0] : addr.reinterpret(addrLength).toArray(ValueLayout.JAVA_BYTE),
            canonName.equals(MemorySegment.NULL) ? null : canonName.reinterpret(Long.MAX_VALUE).getString(0));
    }
}

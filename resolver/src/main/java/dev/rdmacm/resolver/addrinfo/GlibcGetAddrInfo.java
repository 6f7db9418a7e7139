package dev.rdmacm.resolver.addrinfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * glibc's {@code getaddrinfo} through FFM, reduced to what librdmacm uses: the first result or the code.
 * The glibc list is freed on every path, including when reading it fails.
 */
final class GlibcGetAddrInfo
{
    GlibcAnswer firstResult(final String node, final String service, final GlibcHints hints)
    {
        LibcNetdb.requireNativeAccess();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment nodeC = node == null ? MemorySegment.NULL : arena.allocateFrom(node);
            final MemorySegment serviceC = service == null ? MemorySegment.NULL : arena.allocateFrom(service);
            final MemorySegment hintsC = hints == null ? MemorySegment.NULL : hintsStruct(arena, hints);
            final MemorySegment resultHolder = arena.allocate(ValueLayout.ADDRESS);
            final MemorySegment callState = arena.allocate(LibcNetdb.CAPTURE_STATE);
            final int code = (int)LibcNetdb.GETADDRINFO.invokeExact(callState, nodeC, serviceC, hintsC, resultHolder);
            if (code != 0)
            {
                return new GlibcAnswer.Failed(code, (int)LibcNetdb.ERRNO.get(callState, 0L));
            }
            final MemorySegment list = resultHolder.get(ValueLayout.ADDRESS, 0);
            try
            {
                return first(list.reinterpret(LibcNetdb.ADDRINFO_SIZE));
            }
            finally
            {
                LibcNetdb.FREEADDRINFO.invokeExact(list);
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("getaddrinfo downcall failed: " + ex, ex);
        }
    }

    /** {@code gai_strerror(code)}: glibc's own text, so the CLI prints what C programs print. */
    String gaiStrerror(final int code)
    {
        LibcNetdb.requireNativeAccess();
        try
        {
            final MemorySegment text = (MemorySegment)LibcNetdb.GAI_STRERROR.invokeExact(code);
            return text.reinterpret(Long.MAX_VALUE).getString(0);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("gai_strerror downcall failed: " + ex, ex);
        }
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

package dev.rdmacm.libc;


import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every libc function the project calls, as FFM downcall handles looked up once, here and nowhere
 * else (the verbs module hosts every native binding; the modules above call these wrappers). Each
 * wrapper checks the result and turns a failure into a {@link NativeCallException} naming the call
 * and the errno captured right after it ({@code Linker.Option.captureCallState}), because the JVM
 * may overwrite {@code errno} between two Java statements.
 * <p>
 * The {@link CallState} passed to each call holds that captured errno; it belongs to one thread.
 */
public final class Libc
{
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int AF_NETLINK = 16;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_RAW = 3;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_TRUNC = 0x20;
    public static final int SOL_SOCKET = 1;
    public static final int SO_RCVBUF = 8;
    public static final int SO_SNDBUF = 7;
    public static final int SO_BINDTODEVICE = 25;
    public static final short POLLIN = 0x1;
    public static final short POLLERR = 0x8;
    public static final int O_RDONLY = 0;
    public static final int O_CLOEXEC = 0x80000;
    public static final int CLONE_NEWNET = 0x40000000;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;
    /** {@code IF_NAMESIZE} of {@code net/if.h}: the buffer {@link #ifIndexToName} fills. */
    public static final int IF_NAMESIZE = 16;

    /** {@code struct pollfd}: int fd, short events, short revents. */
    public static final int POLLFD_SIZE = 8;
    public static final int POLLFD_FD_OFFSET = 0;
    public static final int POLLFD_EVENTS_OFFSET = 4;
    public static final int POLLFD_REVENTS_OFFSET = 6;

    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final IllegalCallerException ACCESS_DENIED;
    private static final MethodHandle SOCKET;
    private static final MethodHandle BIND;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle SENDTO;
    private static final MethodHandle RECVFROM;
    private static final MethodHandle POLL;
    private static final MethodHandle CLOSE;
    private static final MethodHandle OPEN;
    private static final MethodHandle SETNS;
    private static final MethodHandle EVENTFD;
    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    /** {@code int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)}. */
    private static final MethodHandle GETADDRINFO;
    /** {@code void freeaddrinfo(struct addrinfo *res)}: sets no errno. */
    private static final MethodHandle FREEADDRINFO;
    /** {@code const char *gai_strerror(int errcode)}: sets no errno. */
    private static final MethodHandle GAI_STRERROR;
    /** {@code char *if_indextoname(unsigned ifindex, char *ifname)}: NULL and errno ENXIO for no such interface. */
    private static final MethodHandle IF_INDEXTONAME;
    /**
     * {@code const char *strerrordesc_np(int errnum)}: glibc 2.32+ only, so {@code null} without the
     * symbol; sets no errno and returns NULL for an unknown value.
     */
    private static final MethodHandle STRERRORDESC_NP;

    static
    {
        IllegalCallerException denied = null;
        MethodHandle socket = null, bind = null, getsockname = null, setsockopt = null, sendto = null,
            recvfrom = null, poll = null, close = null, open = null, setns = null, eventfd = null, read = null,
            write = null, getaddrinfo = null, freeaddrinfo = null, gaiStrerror = null, ifIndexToName = null,
            strerrordescNp = null;
        try
        {
            socket = downcall("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
            bind = downcall("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
            getsockname = downcall("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
            setsockopt = downcall("setsockopt",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
            sendto = downcall("sendto",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
            recvfrom = downcall("recvfrom",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
            poll = downcall("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
            close = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            // open(2) is variadic: the mode argument is absent, so no variadic argument is passed.
            open = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            setns = downcall("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
            eventfd = downcall("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
            read = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
            write = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
            getaddrinfo = downcall("getaddrinfo", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            freeaddrinfo = Linker.nativeLinker().downcallHandle(symbol("freeaddrinfo"), FunctionDescriptor.ofVoid(ADDRESS));
            gaiStrerror = Linker.nativeLinker().downcallHandle(symbol("gai_strerror"),
                FunctionDescriptor.of(ADDRESS, JAVA_INT));
            ifIndexToName = downcall("if_indextoname", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
            strerrordescNp = Linker.nativeLinker().defaultLookup().find("strerrordesc_np")
                .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(
                    ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256, JAVA_BYTE)), JAVA_INT)))
                .orElse(null);
        }
        catch (final IllegalCallerException ex)
        {
            denied = ex;
        }
        ACCESS_DENIED = denied;
        SOCKET = socket;
        BIND = bind;
        GETSOCKNAME = getsockname;
        SETSOCKOPT = setsockopt;
        SENDTO = sendto;
        RECVFROM = recvfrom;
        POLL = poll;
        CLOSE = close;
        OPEN = open;
        SETNS = setns;
        EVENTFD = eventfd;
        READ = read;
        WRITE = write;
        GETADDRINFO = getaddrinfo;
        FREEADDRINFO = freeaddrinfo;
        GAI_STRERROR = gaiStrerror;
        IF_INDEXTONAME = ifIndexToName;
        STRERRORDESC_NP = strerrordescNp;
    }

    private Libc()
    {
    }

    /** The errno captured by the last call made with this state; one per thread that calls libc. */
    public static final class CallState
    {
        private final MemorySegment segment;

        public CallState(final Arena arena)
        {
            this.segment = arena.allocate(CAPTURE_LAYOUT);
        }

        public int errno()
        {
            return (int)ERRNO.get(segment, 0L);
        }
    }

    public static int socket(final CallState state, final int domain, final int type, final int protocol)
        throws NativeCallException
    {
        final int fd;
        try
        {
            fd = (int)handle(SOCKET, "socket").invokeExact(state.segment, domain, type, protocol);
        }
        catch (final Throwable t)
        {
            throw unexpected("socket", t);
        }
        return check("socket(domain " + domain + ", type " + type + ", protocol " + protocol + ")", fd, state);
    }

    public static void bind(final CallState state, final int fd, final MemorySegment address, final int length)
        throws NativeCallException
    {
        final int rc;
        try
        {
            rc = (int)handle(BIND, "bind").invokeExact(state.segment, fd, address, length);
        }
        catch (final Throwable t)
        {
            throw unexpected("bind", t);
        }
        check("bind", rc, state);
    }

    /** Fills {@code address} (with {@code lengthInOut} holding its capacity as an int). */
    public static void getsockname(
        final CallState state, final int fd, final MemorySegment address, final MemorySegment lengthInOut)
        throws NativeCallException
    {
        final int rc;
        try
        {
            rc = (int)handle(GETSOCKNAME, "getsockname").invokeExact(state.segment, fd, address, lengthInOut);
        }
        catch (final Throwable t)
        {
            throw unexpected("getsockname", t);
        }
        check("getsockname", rc, state);
    }

    public static void setsockopt(
        final CallState state, final int fd, final int level, final int option, final String optionName,
        final MemorySegment value, final int length) throws NativeCallException
    {
        final int rc;
        try
        {
            rc = (int)handle(SETSOCKOPT, "setsockopt").invokeExact(state.segment, fd, level, option, value, length);
        }
        catch (final Throwable t)
        {
            throw unexpected("setsockopt", t);
        }
        check("setsockopt(" + optionName + ")", rc, state);
    }

    public static long sendto(
        final CallState state, final int fd, final MemorySegment buffer, final long length, final int flags,
        final MemorySegment address, final int addressLength, final String what) throws NativeCallException
    {
        final long sent;
        try
        {
            sent = (long)handle(SENDTO, "sendto").invokeExact(state.segment, fd, buffer, length, flags, address, addressLength);
        }
        catch (final Throwable t)
        {
            throw unexpected("sendto", t);
        }
        if (sent < 0)
        {
            throw new NativeCallException("sendto(" + what + ")", state.errno());
        }
        return sent;
    }

    /**
     * Receives one datagram. Returns its length, or -1 when {@code nonBlockingOk} and the call would
     * block (EAGAIN), so that a duty cycle can drain a socket without an exception per empty read.
     */
    public static long recvfrom(
        final CallState state, final int fd, final MemorySegment buffer, final long length, final int flags,
        final String what) throws NativeCallException
    {
        long received;
        try
        {
            do
            {
                received = (long)handle(RECVFROM, "recvfrom").invokeExact(
                    state.segment, fd, buffer, length, flags, MemorySegment.NULL, MemorySegment.NULL);
            }
            while (received < 0 && state.errno() == Errno.EINTR);
        }
        catch (final Throwable t)
        {
            throw unexpected("recvfrom", t);
        }
        if (received < 0)
        {
            if (state.errno() == Errno.EAGAIN && (flags & MSG_DONTWAIT) != 0)
            {
                return -1;
            }
            throw new NativeCallException("recvfrom(" + what + ")", state.errno());
        }
        return received;
    }

    /** Returns the number of ready descriptors, 0 on timeout; EINTR counts as 0 ready. */
    public static int poll(final CallState state, final MemorySegment pollfds, final int count, final int timeoutMs)
        throws NativeCallException
    {
        final int ready;
        try
        {
            ready = (int)handle(POLL, "poll").invokeExact(state.segment, pollfds, (long)count, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw unexpected("poll", t);
        }
        if (ready < 0)
        {
            if (state.errno() == Errno.EINTR)
            {
                return 0;
            }
            throw new NativeCallException("poll", state.errno());
        }
        return ready;
    }

    public static void close(final CallState state, final int fd) throws NativeCallException
    {
        final int rc;
        try
        {
            rc = (int)handle(CLOSE, "close").invokeExact(state.segment, fd);
        }
        catch (final Throwable t)
        {
            throw unexpected("close", t);
        }
        check("close(" + fd + ")", rc, state);
    }

    public static int open(final CallState state, final MemorySegment path, final String pathText, final int flags)
        throws NativeCallException
    {
        final int fd;
        try
        {
            fd = (int)handle(OPEN, "open").invokeExact(state.segment, path, flags);
        }
        catch (final Throwable t)
        {
            throw unexpected("open", t);
        }
        return check("open(" + pathText + ")", fd, state);
    }

    /** Moves the calling thread (only) into the namespace that {@code fd} refers to. */
    public static void setns(final CallState state, final int fd, final int namespaceType, final String what)
        throws NativeCallException
    {
        final int rc;
        try
        {
            rc = (int)handle(SETNS, "setns").invokeExact(state.segment, fd, namespaceType);
        }
        catch (final Throwable t)
        {
            throw unexpected("setns", t);
        }
        check("setns(" + what + ")", rc, state);
    }

    public static int eventfd(final CallState state, final int initialValue, final int flags)
        throws NativeCallException
    {
        final int fd;
        try
        {
            fd = (int)handle(EVENTFD, "eventfd").invokeExact(state.segment, initialValue, flags);
        }
        catch (final Throwable t)
        {
            throw unexpected("eventfd", t);
        }
        return check("eventfd", fd, state);
    }

    /** Returns bytes read, or -1 on EAGAIN (non-blocking descriptors only). */
    public static long read(final CallState state, final int fd, final MemorySegment buffer, final long length,
        final String what) throws NativeCallException
    {
        final long count;
        try
        {
            count = (long)handle(READ, "read").invokeExact(state.segment, fd, buffer, length);
        }
        catch (final Throwable t)
        {
            throw unexpected("read", t);
        }
        if (count < 0)
        {
            if (state.errno() == Errno.EAGAIN)
            {
                return -1;
            }
            throw new NativeCallException("read(" + what + ")", state.errno());
        }
        return count;
    }

    public static long write(final CallState state, final int fd, final MemorySegment buffer, final long length,
        final String what) throws NativeCallException
    {
        final long count;
        try
        {
            count = (long)handle(WRITE, "write").invokeExact(state.segment, fd, buffer, length);
        }
        catch (final Throwable t)
        {
            throw unexpected("write", t);
        }
        if (count < 0)
        {
            throw new NativeCallException("write(" + what + ")", state.errno());
        }
        return count;
    }

    /**
     * Returns getaddrinfo's own result: 0, or an {@code EAI_*} code (with {@code state}'s errno meaningful
     * for {@code EAI_SYSTEM}); a failed name lookup is an answer, not an exception. On 0, {@code result}
     * holds the list, which the caller must pass to {@link #freeaddrinfo}.
     */
    public static int getaddrinfo(
        final CallState state, final MemorySegment node, final MemorySegment service, final MemorySegment hints,
        final MemorySegment result)
    {
        try
        {
            return (int)handle(GETADDRINFO, "getaddrinfo").invokeExact(state.segment, node, service, hints, result);
        }
        catch (final Throwable t)
        {
            throw unexpected("getaddrinfo", t);
        }
    }

    public static void freeaddrinfo(final MemorySegment list)
    {
        try
        {
            handle(FREEADDRINFO, "freeaddrinfo").invokeExact(list);
        }
        catch (final Throwable t)
        {
            throw unexpected("freeaddrinfo", t);
        }
    }

    /** glibc's text for an {@code EAI_*} code, so the CLI prints what C programs print. */
    public static String gaiStrerror(final int code)
    {
        final MemorySegment text;
        try
        {
            text = (MemorySegment)handle(GAI_STRERROR, "gai_strerror").invokeExact(code);
        }
        catch (final Throwable t)
        {
            throw unexpected("gai_strerror", t);
        }
        return text.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /**
     * The name of the network interface with index {@code ifindex}, written into {@code buffer} (at
     * least {@link #IF_NAMESIZE} bytes); {@code null} when no interface has that index (ENXIO), as
     * happens when a netdev vanishes between listing it and naming it.
     */
    public static String ifIndexToName(final CallState state, final int ifindex, final MemorySegment buffer)
        throws NativeCallException
    {
        if (buffer.byteSize() < IF_NAMESIZE)
        {
            throw new IllegalArgumentException("if_indextoname: buffer of " + buffer.byteSize() +
                " bytes is smaller than IF_NAMESIZE (" + IF_NAMESIZE + ")");
        }
        final MemorySegment name;
        try
        {
            name = (MemorySegment)handle(IF_INDEXTONAME, "if_indextoname").invokeExact(state.segment, ifindex, buffer);
        }
        catch (final Throwable t)
        {
            throw unexpected("if_indextoname", t);
        }
        if (name.address() == 0)
        {
            if (state.errno() == Errno.ENXIO)
            {
                return null;
            }
            throw new NativeCallException("if_indextoname(" + ifindex + ")", state.errno());
        }
        return buffer.getString(0);
    }

    /**
     * glibc's text for an errno ({@code strerrordesc_np}), or {@code null} when glibc does not know
     * the value, lacks the symbol (before 2.32) or native access is denied: naming an errno must never
     * fail, so this is the one wrapper that does not throw for a denied access.
     */
    public static String strerrordesc(final int errno)
    {
        if (ACCESS_DENIED != null || STRERRORDESC_NP == null)
        {
            return null;
        }
        final MemorySegment text;
        try
        {
            text = (MemorySegment)STRERRORDESC_NP.invokeExact(errno);
        }
        catch (final Throwable t)
        {
            throw unexpected("strerrordesc_np", t);
        }
        return text.equals(MemorySegment.NULL) ? null : text.getString(0);
    }

    private static int check(final String call, final int rc, final CallState state) throws NativeCallException
    {
        if (rc < 0)
        {
            throw new NativeCallException(call, state.errno());
        }
        return rc;
    }

    private static MethodHandle handle(final MethodHandle handle, final String call)
    {
        if (ACCESS_DENIED != null)
        {
            throw new IllegalStateException("native access to libc (" + call + ") is denied: start the JVM with " +
                "--enable-native-access=ALL-UNNAMED (the rdmacm launcher and jar manifest do)", ACCESS_DENIED);
        }
        return handle;
    }

    private static IllegalStateException unexpected(final String call, final Throwable t)
    {
        if (t instanceof RuntimeException r)
        {
            throw r;
        }
        if (t instanceof Error e)
        {
            throw e;
        }
        return new IllegalStateException("downcall " + call + " threw " + t, t);
    }

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor)
    {
        return Linker.nativeLinker().downcallHandle(symbol(name), descriptor, Linker.Option.captureCallState("errno"));
    }

    private static MemorySegment symbol(final String name)
    {
        final SymbolLookup libc = Linker.nativeLinker().defaultLookup();
        return libc.find(name).orElseThrow(() -> new IllegalStateException("libc has no symbol " + name));
    }
}

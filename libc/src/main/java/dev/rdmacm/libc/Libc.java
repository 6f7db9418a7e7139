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
 * else (this module is the one libc binding; the modules above call these wrappers). Each wrapper
 * runs its handle through one of three generic calls ({@code callInt}, {@code callLong},
 * {@code callPointer}: the access check and the one translation of what a downcall throws; the hot calls,
 * a socket's send, receive and poll, {@code write} and {@code pread}, make the same two steps inline, as a
 * lambda per call is an allocation under C1, which the guest mains run with, issue 32), checks
 * the result and turns a failure into a {@link NativeCallException} naming the call and the errno
 * captured right after it ({@code Linker.Option.captureCallState}), because the JVM may overwrite
 * {@code errno} between two Java statements; the same pattern as {@code LibIbverbs}.
 * <p>
 * The {@link CallState} passed to each call holds that captured errno; it belongs to one thread.
 */
public final class Libc
{
    public static final int AF_UNIX = 1;
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int AF_NETLINK = 16;
    public static final int SOCK_STREAM = 1;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_RAW = 3;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_TRUNC = 0x20;
    /** No SIGPIPE when the peer of a stream socket has gone: EPIPE instead. */
    public static final int MSG_NOSIGNAL = 0x4000;
    public static final int SOL_SOCKET = 1;
    public static final int SO_ERROR = 4;
    public static final int SO_RCVBUF = 8;
    public static final int SO_SNDBUF = 7;
    public static final int SO_BINDTODEVICE = 25;
    public static final short POLLIN = 0x1;
    public static final short POLLOUT = 0x4;
    public static final short POLLERR = 0x8;
    /** Reported whatever the requested events: the peer hung up (a pipe's last writer closed). */
    public static final short POLLHUP = 0x10;
    /** Reported whatever the requested events: the descriptor is not open (closed while still polled). */
    public static final short POLLNVAL = 0x20;
    public static final int O_RDONLY = 0;
    public static final int O_RDWR = 2;
    public static final int O_NONBLOCK = 0x800;
    public static final int O_CREAT = 0x40;
    /** {@code lockf} commands ({@code unistd.h}): unlock, and lock-or-fail-at-once. */
    public static final int F_ULOCK = 0;
    public static final int F_TLOCK = 2;
    public static final int O_CLOEXEC = 0x80000;
    public static final int CLONE_NEWNET = 0x40000000;
    public static final int EFD_SEMAPHORE = 0x1;
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

    /** Why native access is denied (then every handle below is null), or null. */
    private static final IllegalCallerException ACCESS_DENIED = probeAccess();

    /*
     * The handles, one holder class per function, each initialised (its handle linked) on the first call
     * of that function and no sooner: a command links only what it calls (rdmacm getaddrinfo 2 of these
     * 25, resolve-addr to loopback 10), and linking was most of what a cold start of the CLI spent in this
     * class (a stub class and its method handle forms spun per signature, 5-7 ms each on the 2-core
     * development machine). Still looked up once, here, and static final, so the JIT inlines them as
     * before. Grouped below by use.
     */

    // socket(2) and the calls on a datagram socket (netlink, the CM's own sockets)
    private static final class Socket
    {
        static final MethodHandle HANDLE = downcall("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Bind
    {
        static final MethodHandle HANDLE = downcall("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Getsockname
    {
        static final MethodHandle HANDLE = downcall("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    private static final class Setsockopt
    {
        static final MethodHandle HANDLE =
            downcall("setsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Sendto
    {
        static final MethodHandle HANDLE =
            downcall("sendto", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Recvfrom
    {
        static final MethodHandle HANDLE =
            downcall("recvfrom", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    }

    // connecting a stream socket without blocking (the ACM clients)
    private static final class Connect
    {
        static final MethodHandle HANDLE = downcall("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Getsockopt
    {
        static final MethodHandle HANDLE =
            downcall("getsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    // what an event loop calls on any descriptor: poll, eventfds, pipes, read, write, close
    private static final class Poll
    {
        static final MethodHandle HANDLE = downcall("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    private static final class Close
    {
        static final MethodHandle HANDLE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    private static final class Eventfd
    {
        static final MethodHandle HANDLE = downcall("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Pipe2
    {
        static final MethodHandle HANDLE = downcall("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Read
    {
        static final MethodHandle HANDLE = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private static final class Pread
    {
        static final MethodHandle HANDLE =
            downcall("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    }

    private static final class Write
    {
        static final MethodHandle HANDLE = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    // opening files by path: device files and their ioctls (umad), namespace files and setns
    private static final class Open
    {
        /** open(2) is variadic: the mode argument is absent, so no variadic argument is passed. */
        static final MethodHandle HANDLE = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Ioctl
    {
        /**
         * {@code int ioctl(int fd, unsigned long request, ...)}: variadic, so the one argument every caller
         * passes (a pointer, or NULL for a request that takes none) is declared as the first variadic one.
         */
        static final MethodHandle HANDLE = ACCESS_DENIED != null ? null :
            Linker.nativeLinker().downcallHandle(symbol("ioctl"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                Linker.Option.firstVariadicArg(2), Linker.Option.captureCallState("errno"));
    }

    private static final class Setns
    {
        static final MethodHandle HANDLE = downcall("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    // files that are locks: a pid file held with lockf, as daemons hold theirs
    private static final class OpenCreate
    {
        /** open(2) with its variadic mode, for O_CREAT. */
        static final MethodHandle HANDLE = ACCESS_DENIED != null ? null :
            Linker.nativeLinker().downcallHandle(symbol("open"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(2), Linker.Option.captureCallState("errno"));
    }

    private static final class Lockf
    {
        static final MethodHandle HANDLE = downcall("lockf", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    }

    private static final class Ftruncate
    {
        static final MethodHandle HANDLE = downcall("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    }

    // names: glibc's getaddrinfo, and the names of interfaces (the netdev of a GID, for the verbs)
    private static final class Getaddrinfo
    {
        /** {@code int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)}. */
        static final MethodHandle HANDLE = downcall("getaddrinfo", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    }

    private static final class Freeaddrinfo
    {
        /** {@code void freeaddrinfo(struct addrinfo *res)}: sets no errno. */
        static final MethodHandle HANDLE = downcallWithoutErrno("freeaddrinfo", FunctionDescriptor.ofVoid(ADDRESS));
    }

    private static final class IfIndextoname
    {
        /** {@code char *if_indextoname(unsigned ifindex, char *ifname)}: NULL and errno ENXIO for no such interface. */
        static final MethodHandle HANDLE = downcall("if_indextoname", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    }

    // the texts of error codes
    private static final class GaiStrerror
    {
        /** {@code const char *gai_strerror(int errcode)}: sets no errno. */
        static final MethodHandle HANDLE = downcallWithoutErrno("gai_strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    private static final class StrerrordescNp
    {
        /**
         * {@code const char *strerrordesc_np(int errnum)}: glibc 2.32+ only, so {@code null} without the
         * symbol; sets no errno and returns NULL for an unknown value.
         */
        static final MethodHandle HANDLE = ACCESS_DENIED != null ? null :
            Linker.nativeLinker().defaultLookup().find("strerrordesc_np")
                .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(
                    ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256, JAVA_BYTE)), JAVA_INT)))
                .orElse(null);
    }

    /** A downcall returning an int (a descriptor, a count or a status), given the errno capture segment. */
    @FunctionalInterface
    private interface IntCall
    {
        int invoke(MemorySegment errnoState) throws Throwable;
    }

    /** A downcall returning a long ({@code ssize_t}), given the errno capture segment. */
    @FunctionalInterface
    private interface LongCall
    {
        long invoke(MemorySegment errnoState) throws Throwable;
    }

    /** A downcall returning a pointer, given the errno capture segment (unused by calls that set no errno). */
    @FunctionalInterface
    private interface PointerCall
    {
        MemorySegment invoke(MemorySegment errnoState) throws Throwable;
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
        final int fd = callInt("socket", state, errno -> (int)Socket.HANDLE.invokeExact(errno, domain, type, protocol));
        return check("socket(domain " + domain + ", type " + type + ", protocol " + protocol + ")", fd, state);
    }

    public static void bind(final CallState state, final int fd, final MemorySegment address, final int length)
        throws NativeCallException
    {
        check("bind", callInt("bind", state, errno -> (int)Bind.HANDLE.invokeExact(errno, fd, address, length)), state);
    }

    /**
     * connect(2) of a stream socket to {@code address} ({@code struct sockaddr_un} or {@code sockaddr_in}).
     * Returns true when connected, false when the connection is under way: EINPROGRESS (a nonblocking
     * TCP socket; poll for {@link #POLLOUT}, then read {@link #SO_ERROR}) or EINTR (a signal ended the wait,
     * the connection goes on). Any other failure throws, EAGAIN included (a unix socket whose listener's
     * backlog is full: a nonblocking connect cannot wait for room).
     */
    public static boolean connect(final CallState state, final int fd, final MemorySegment address, final int length,
        final String what) throws NativeCallException
    {
        final int rc = callInt("connect", state, errno -> (int)Connect.HANDLE.invokeExact(errno, fd, address, length));
        if (rc < 0 && (state.errno() == Errno.EINPROGRESS || state.errno() == Errno.EINTR))
        {
            return false;
        }
        check("connect", what, rc, state);
        return true;
    }

    /**
     * Fills {@code value} with the option (with {@code lengthInOut} holding its capacity as an int, and
     * afterwards the option's length).
     */
    public static void getsockopt(
        final CallState state, final int fd, final int level, final int option, final String optionName,
        final MemorySegment value, final MemorySegment lengthInOut) throws NativeCallException
    {
        check("getsockopt", optionName, callInt("getsockopt", state,
            errno -> (int)Getsockopt.HANDLE.invokeExact(errno, fd, level, option, value, lengthInOut)), state);
    }

    /** Fills {@code address} (with {@code lengthInOut} holding its capacity as an int). */
    public static void getsockname(
        final CallState state, final int fd, final MemorySegment address, final MemorySegment lengthInOut)
        throws NativeCallException
    {
        check("getsockname", callInt("getsockname", state,
            errno -> (int)Getsockname.HANDLE.invokeExact(errno, fd, address, lengthInOut)), state);
    }

    public static void setsockopt(
        final CallState state, final int fd, final int level, final int option, final String optionName,
        final MemorySegment value, final int length) throws NativeCallException
    {
        check("setsockopt", optionName, callInt("setsockopt", state,
            errno -> (int)Setsockopt.HANDLE.invokeExact(errno, fd, level, option, value, length)), state);
    }

    public static long sendto(
        final CallState state, final int fd, final MemorySegment buffer, final long length, final int flags,
        final MemorySegment address, final int addressLength, final String what) throws NativeCallException
    {
        requireAccess("sendto");
        final long sent;
        try
        {
            sent = (long)Sendto.HANDLE.invokeExact(state.segment, fd, buffer, length, flags, address, addressLength);
        }
        catch (final Throwable t)
        {
            throw unexpected("sendto", t);
        }
        return check("sendto", what, sent, state);
    }

    /**
     * Receives one datagram. Returns its length, or -1 when {@code nonBlockingOk} and the call would
     * block (EAGAIN), so that a duty cycle can drain a socket without an exception per empty read.
     */
    public static long recvfrom(
        final CallState state, final int fd, final MemorySegment buffer, final long length, final int flags,
        final String what) throws NativeCallException
    {
        requireAccess("recvfrom");
        long received;
        do
        {
            try
            {
                received = (long)Recvfrom.HANDLE.invokeExact(state.segment, fd, buffer, length, flags, MemorySegment.NULL,
                    MemorySegment.NULL);
            }
            catch (final Throwable t)
            {
                throw unexpected("recvfrom", t);
            }
        }
        while (received < 0 && state.errno() == Errno.EINTR);
        if (received < 0 && state.errno() == Errno.EAGAIN && (flags & MSG_DONTWAIT) != 0)
        {
            return -1;
        }
        return check("recvfrom", what, received, state);
    }

    /** Returns the number of ready descriptors, 0 on timeout; EINTR counts as 0 ready. */
    public static int poll(final CallState state, final MemorySegment pollfds, final int count, final int timeoutMs)
        throws NativeCallException
    {
        requireAccess("poll");
        final int ready;
        try
        {
            ready = (int)Poll.HANDLE.invokeExact(state.segment, pollfds, (long)count, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw unexpected("poll", t);
        }
        if (ready < 0 && state.errno() == Errno.EINTR)
        {
            return 0;
        }
        return check("poll", ready, state);
    }

    public static void close(final CallState state, final int fd) throws NativeCallException
    {
        check("close", fd, callInt("close", state, errno -> (int)Close.HANDLE.invokeExact(errno, fd)), state);
    }

    public static int open(final CallState state, final MemorySegment path, final String pathText, final int flags)
        throws NativeCallException
    {
        return check("open(" + pathText + ")", callInt("open", state, errno -> (int)Open.HANDLE.invokeExact(errno, path, flags)),
            state);
    }

    /** {@code open(path, flags | O_CREAT, mode)}: creates the file with {@code mode} (before the umask) if absent. */
    public static int openCreate(final CallState state, final MemorySegment path, final String pathText, final int flags,
        final int mode) throws NativeCallException
    {
        return check("open(" + pathText + ", O_CREAT)", callInt("open", state,
            errno -> (int)OpenCreate.HANDLE.invokeExact(errno, path, flags | O_CREAT, mode)), state);
    }

    /**
     * {@code lockf(fd, command, length)}: a POSIX record lock (the {@code fcntl} kind, per process, released
     * when the process closes any descriptor of the file). {@link #F_TLOCK} fails with EACCES or EAGAIN
     * when another process holds the lock, which the exception's errno tells the caller.
     */
    public static void lockf(final CallState state, final int fd, final int command, final long length, final String what)
        throws NativeCallException
    {
        check("lockf", what, callInt("lockf", state,
            errno -> (int)Lockf.HANDLE.invokeExact(errno, fd, command, length)), state);
    }

    public static void ftruncate(final CallState state, final int fd, final long length, final String what)
        throws NativeCallException
    {
        check("ftruncate", what, callInt("ftruncate", state,
            errno -> (int)Ftruncate.HANDLE.invokeExact(errno, fd, length)), state);
    }

    /**
     * {@code ioctl(fd, request, argument)}; returns its non-negative result. {@code what} names the
     * request in the exception, e.g. {@code IB_USER_MAD_REGISTER_AGENT2 on /dev/infiniband/umad0}.
     */
    public static int ioctl(final CallState state, final int fd, final long request, final MemorySegment argument,
        final String what) throws NativeCallException
    {
        return check("ioctl", what, callInt("ioctl", state,
            errno -> (int)Ioctl.HANDLE.invokeExact(errno, fd, request, argument)), state);
    }

    /** Moves the calling thread (only) into the namespace that {@code fd} refers to. */
    public static void setns(final CallState state, final int fd, final int namespaceType, final String what)
        throws NativeCallException
    {
        check("setns", what, callInt("setns", state, errno -> (int)Setns.HANDLE.invokeExact(errno, fd, namespaceType)),
            state);
    }

    public static int eventfd(final CallState state, final int initialValue, final int flags)
        throws NativeCallException
    {
        return check("eventfd", callInt("eventfd", state, errno -> (int)Eventfd.HANDLE.invokeExact(errno, initialValue, flags)),
            state);
    }

    /**
     * {@code pipe2(fds, flags)}: fills {@code fds} (two ints) with the read end, then the write end;
     * {@code flags} is 0 or {@link #O_NONBLOCK} and {@link #O_CLOEXEC}.
     */
    public static void pipe2(final CallState state, final MemorySegment fds, final int flags) throws NativeCallException
    {
        check("pipe2", callInt("pipe2", state, errno -> (int)Pipe2.HANDLE.invokeExact(errno, fds, flags)), state);
    }

    /** Returns bytes read, or -1 on EAGAIN (non-blocking descriptors only). */
    public static long read(final CallState state, final int fd, final MemorySegment buffer, final long length,
        final String what) throws NativeCallException
    {
        return unlessWouldBlock("read", what,
            callLong("read", state, errno -> (long)Read.HANDLE.invokeExact(errno, fd, buffer, length)), state);
    }

    /** {@code pread(fd, buffer, length, offset)}: returns the bytes read; {@code what} names the file in the exception. */
    public static long pread(final CallState state, final int fd, final MemorySegment buffer, final long length, final long offset,
        final String what) throws NativeCallException
    {
        requireAccess("pread");
        final long count;
        try
        {
            count = (long)Pread.HANDLE.invokeExact(state.segment, fd, buffer, length, offset);
        }
        catch (final Throwable t)
        {
            throw unexpected("pread", t);
        }
        return count < 0 ? check("pread", what, count, state) : count;
    }

    public static long write(final CallState state, final int fd, final MemorySegment buffer, final long length,
        final String what) throws NativeCallException
    {
        return check("write", what, write(state, fd, buffer, length), state);
    }

    /**
     * As {@link #write}, but returns -1 on EAGAIN (non-blocking descriptors only), as {@link #read} does: a
     * duty cycle that writes until the descriptor has nothing more (the kernel CM's GET_EVENT) meets EAGAIN
     * once per readiness, and an exception for it was a fifth of that loop's CPU in a TCG guest (issue 32).
     */
    public static long writeUnlessWouldBlock(final CallState state, final int fd, final MemorySegment buffer, final long length,
        final String what) throws NativeCallException
    {
        return unlessWouldBlock("write", what, write(state, fd, buffer, length), state);
    }

    /** {@code write(2)}'s raw result, its handle invoked here rather than through a lambda (one a call, under C1). */
    private static long write(final CallState state, final int fd, final MemorySegment buffer, final long length)
    {
        requireAccess("write");
        try
        {
            return (long)Write.HANDLE.invokeExact(state.segment, fd, buffer, length);
        }
        catch (final Throwable t)
        {
            throw unexpected("write", t);
        }
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
        return callInt("getaddrinfo", state, errno -> (int)Getaddrinfo.HANDLE.invokeExact(errno, node, service, hints, result));
    }

    public static void freeaddrinfo(final MemorySegment list)
    {
        callPointer("freeaddrinfo", null, ignored ->
        {
            Freeaddrinfo.HANDLE.invokeExact(list);
            return MemorySegment.NULL;
        });
    }

    /** glibc's text for an {@code EAI_*} code, so the CLI prints what C programs print. */
    public static String gaiStrerror(final int code)
    {
        final MemorySegment text = callPointer("gai_strerror", null,
            ignored -> (MemorySegment)GaiStrerror.HANDLE.invokeExact(code));
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
        final MemorySegment name = callPointer("if_indextoname", state,
            errno -> (MemorySegment)IfIndextoname.HANDLE.invokeExact(errno, ifindex, buffer));
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
        if (StrerrordescNp.HANDLE == null)
        {
            return null;
        }
        final MemorySegment text = callPointer("strerrordesc_np", null,
            ignored -> (MemorySegment)StrerrordescNp.HANDLE.invokeExact(errno));
        return text.equals(MemorySegment.NULL) ? null : text.getString(0);
    }

    /** Runs {@code call} with {@code state}'s capture segment; its raw result, whatever it is. */
    private static int callInt(final String name, final CallState state, final IntCall call)
    {
        requireAccess(name);
        try
        {
            return call.invoke(state.segment);
        }
        catch (final Throwable t)
        {
            throw unexpected(name, t);
        }
    }

    private static long callLong(final String name, final CallState state, final LongCall call)
    {
        requireAccess(name);
        try
        {
            return call.invoke(state.segment);
        }
        catch (final Throwable t)
        {
            throw unexpected(name, t);
        }
    }

    /** As {@link #callInt}; {@code state} may be null for the calls that set no errno. */
    private static MemorySegment callPointer(final String name, final CallState state, final PointerCall call)
    {
        requireAccess(name);
        try
        {
            return call.invoke(state == null ? null : state.segment);
        }
        catch (final Throwable t)
        {
            throw unexpected(name, t);
        }
    }

    /**
     * As {@link #check(String, int, CallState)}, with the call's text ({@code call(what)}) made only for the
     * exception: the hot calls (a socket's send and receive, the CM's writes) would otherwise build it on
     * every success.
     */
    private static int check(final String call, final Object what, final int rc, final CallState state)
        throws NativeCallException
    {
        if (rc < 0)
        {
            throw new NativeCallException(call + "(" + what + ")", state.errno());
        }
        return rc;
    }

    /** {@code count}, -1 for EAGAIN (a non-blocking descriptor's "not now"), or the failure as {@link #check(String, Object, long, CallState)}. */
    private static long unlessWouldBlock(final String call, final Object what, final long count, final CallState state)
        throws NativeCallException
    {
        return count < 0 && state.errno() == Errno.EAGAIN ? -1 : check(call, what, count, state);
    }

    /** As {@link #check(String, Object, int, CallState)} for a count. */
    private static long check(final String call, final Object what, final long count, final CallState state)
        throws NativeCallException
    {
        if (count < 0)
        {
            throw new NativeCallException(call + "(" + what + ")", state.errno());
        }
        return count;
    }

    /** {@code rc}, or the call's errno as a {@link NativeCallException} naming {@code call} when it is negative. */
    private static int check(final String call, final int rc, final CallState state) throws NativeCallException
    {
        if (rc < 0)
        {
            throw new NativeCallException(call, state.errno());
        }
        return rc;
    }

    private static void requireAccess(final String call)
    {
        if (ACCESS_DENIED != null)
        {
            throw new IllegalStateException("native access to libc (" + call + ") is denied: start the JVM with " +
                "--enable-native-access=ALL-UNNAMED (the rdmacm launcher and jar manifest do)", ACCESS_DENIED);
        }
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

    /** The reason native access is denied to this class, found by calling one restricted method; null when it is not. */
    private static IllegalCallerException probeAccess()
    {
        try
        {
            // any restricted method tells; this one links nothing (a downcall here spun a stub on every start)
            MemorySegment.NULL.reinterpret(0);
            return null;
        }
        catch (final IllegalCallerException ex)
        {
            return ex;
        }
    }

    /** A downcall that captures errno; null when native access is denied. */
    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor)
    {
        return ACCESS_DENIED != null ? null :
            Linker.nativeLinker().downcallHandle(symbol(name), descriptor, Linker.Option.captureCallState("errno"));
    }

    /** A downcall of a function that sets no errno; null when native access is denied. */
    private static MethodHandle downcallWithoutErrno(final String name, final FunctionDescriptor descriptor)
    {
        return ACCESS_DENIED != null ? null : Linker.nativeLinker().downcallHandle(symbol(name), descriptor);
    }

    private static MemorySegment symbol(final String name)
    {
        final SymbolLookup libc = Linker.nativeLinker().defaultLookup();
        return libc.find(name).orElseThrow(() -> new IllegalStateException("libc has no symbol " + name));
    }
}

package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.function.Supplier;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Every method handle into libibverbs, looked up once, here, in the manner of Lucene's
 * {@code PosixNativeAccess}: in holder classes by use, each linked when first used. The libc calls the
 * verbs need ({@code if_indextoname}) are in {@link dev.rdmacm.libc.Libc}, the project's one libc binding.
 * <p>
 * Exported functions are bound to their symbols and capture errno. The entry points that
 * {@code verbs.h} defines as {@code static inline} (post_send, post_recv, poll_cq, req_notify_cq and
 * the extended query_port) are not symbols at all: their handles here take the function pointer as
 * the first argument and {@link ContextOps} calls them through the slots of the context; they do not
 * capture errno because these calls return their error (and are on the hot path).
 * <p>
 * When the library cannot be loaded, or native access is denied, nothing is thrown here:
 * {@link #unavailableReason()} says why and the exported handles stay {@code null}.
 */
final class LibIbverbs
{
    /** The system property naming another libibverbs to load (a file path or a soname). */
    static final String LIBRARY_PROPERTY = "rdmacm.libibverbs";
    static final String LIBRARY = System.getProperty(LIBRARY_PROPERTY, "libibverbs.so.1");

    private static final Linker LINKER = Linker.nativeLinker();
    static final MemoryLayout ERRNO_STATE = Linker.Option.captureStateLayout();
    private static final long ERRNO_OFFSET = ERRNO_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /**
     * Every exported function the holders below bind: {@link #UNAVAILABLE_REASON} names the first one the
     * library lacks, as when every handle was linked here at once. Looking a symbol up is cheap (dlsym);
     * linking it is not.
     */
    private static final List<String> SYMBOLS = List.of("ibv_get_device_list", "ibv_free_device_list",
        "ibv_get_device_name", "ibv_get_device_guid", "ibv_open_device", "ibv_close_device", "ibv_query_device",
        "ibv_query_port", "_ibv_query_gid_ex", "_ibv_query_gid_table", "ibv_query_pkey", "ibv_alloc_pd",
        "ibv_dealloc_pd", "ibv_reg_mr", "ibv_dereg_mr", "ibv_create_comp_channel", "ibv_destroy_comp_channel",
        "ibv_create_cq", "ibv_destroy_cq", "ibv_get_cq_event", "ibv_ack_cq_events", "ibv_create_qp", "ibv_modify_qp",
        "ibv_query_qp", "ibv_destroy_qp", "ibv_create_ah", "ibv_destroy_ah", "ibv_init_ah_from_wc", "ibv_attach_mcast",
        "ibv_detach_mcast");

    /** The loaded library, or null when it cannot be used ({@link #UNAVAILABLE_REASON} says why). */
    private static final SymbolLookup LOOKUP;
    private static final String UNAVAILABLE_REASON;

    static
    {
        String reason = null;
        SymbolLookup lookup = null;
        try
        {
            lookup = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
        }
        catch (final IllegalCallerException ex)
        {
            reason = "native access to " + LIBRARY + " is denied: start the JVM with "
                + "--enable-native-access=ALL-UNNAMED (" + ex.getMessage() + ")";
        }
        catch (final IllegalArgumentException ex)
        {
            reason = LIBRARY + " cannot be loaded (" + ex.getMessage() + "): install the Debian package "
                + "libibverbs1 (and ibverbs-providers for the device drivers)";
        }
        if (lookup != null)
        {
            for (final String symbol : SYMBOLS)
            {
                if (lookup.find(symbol).isEmpty())
                {
                    reason = LIBRARY + " has no symbol " + symbol + ": rdma-core 44 or newer is needed";
                    lookup = null;
                    break;
                }
            }
        }
        LOOKUP = lookup;
        UNAVAILABLE_REASON = reason;
    }

    /*
     * The handles, in holder classes by use, each initialised (every handle in it linked) on the first use
     * of one of them, as libc's are: rdmacm devices links the four it calls to list the devices, not all
     * 33 (a stub class spun per signature, 5-7 ms each on a 2-core machine, was most of its cold start).
     * Still looked up once, here, and static final, so the JIT inlines them as before. Exported functions
     * capture errno (the first argument of each is the capture segment) unless bound plain; every handle
     * is null when the library cannot be used.
     */

    /** Listing the devices. */
    static final class Devices
    {
        static final MethodHandle GET_DEVICE_LIST = errno("ibv_get_device_list", ADDRESS, ADDRESS);
        static final MethodHandle FREE_DEVICE_LIST = plain("ibv_free_device_list", null, ADDRESS);
        static final MethodHandle GET_DEVICE_NAME = plain("ibv_get_device_name", ADDRESS, ADDRESS);
        static final MethodHandle GET_DEVICE_GUID = plain("ibv_get_device_guid", JAVA_LONG, ADDRESS);

        private Devices()
        {
        }
    }

    /** Opening a device and querying it, its ports, GIDs and P_Keys. */
    static final class Contexts
    {
        static final MethodHandle OPEN_DEVICE = errno("ibv_open_device", ADDRESS, ADDRESS);
        static final MethodHandle CLOSE_DEVICE = errno("ibv_close_device", JAVA_INT, ADDRESS);
        static final MethodHandle QUERY_DEVICE = errno("ibv_query_device", JAVA_INT, ADDRESS, ADDRESS);
        static final MethodHandle QUERY_PORT_COMPAT = errno("ibv_query_port", JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS);
        static final MethodHandle QUERY_GID_EX =
            errno("_ibv_query_gid_ex", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG);
        static final MethodHandle QUERY_GID_TABLE =
            errno("_ibv_query_gid_table", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG);
        static final MethodHandle QUERY_PKEY = errno("ibv_query_pkey", JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS);
        /** {@code int (*query_port)(struct ibv_context *, uint8_t port, struct ibv_port_attr *, size_t len)}, static inline */
        static final MethodHandle QUERY_PORT = inline(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG));

        private Contexts()
        {
        }
    }

    /** Protection domains, memory regions, completion channels and queues. */
    static final class Resources
    {
        static final MethodHandle ALLOC_PD = errno("ibv_alloc_pd", ADDRESS, ADDRESS);
        static final MethodHandle DEALLOC_PD = errno("ibv_dealloc_pd", JAVA_INT, ADDRESS);
        static final MethodHandle REG_MR = errno("ibv_reg_mr", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT);
        static final MethodHandle DEREG_MR = errno("ibv_dereg_mr", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_COMP_CHANNEL = errno("ibv_create_comp_channel", ADDRESS, ADDRESS);
        static final MethodHandle DESTROY_COMP_CHANNEL = errno("ibv_destroy_comp_channel", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_CQ = errno("ibv_create_cq", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        static final MethodHandle DESTROY_CQ = errno("ibv_destroy_cq", JAVA_INT, ADDRESS);
        static final MethodHandle GET_CQ_EVENT = errno("ibv_get_cq_event", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle ACK_CQ_EVENTS = plain("ibv_ack_cq_events", null, ADDRESS, JAVA_INT);

        private Resources()
        {
        }
    }

    /** Queue pairs and address handles. */
    static final class QueuePairs
    {
        static final MethodHandle CREATE_QP = errno("ibv_create_qp", ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle MODIFY_QP = errno("ibv_modify_qp", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        static final MethodHandle QUERY_QP = errno("ibv_query_qp", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DESTROY_QP = errno("ibv_destroy_qp", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_AH = errno("ibv_create_ah", ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle DESTROY_AH = errno("ibv_destroy_ah", JAVA_INT, ADDRESS);
        /** {@code int ibv_init_ah_from_wc(struct ibv_context *, uint8_t port, struct ibv_wc *, struct ibv_grh *, struct ibv_ah_attr *)} */
        static final MethodHandle INIT_AH_FROM_WC = errno("ibv_init_ah_from_wc", JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS);
        /** {@code int ibv_attach_mcast(struct ibv_qp *, const union ibv_gid *, uint16_t lid)} */
        static final MethodHandle ATTACH_MCAST = errno("ibv_attach_mcast", JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT);
        /** {@code int ibv_detach_mcast(struct ibv_qp *, const union ibv_gid *, uint16_t lid)} */
        static final MethodHandle DETACH_MCAST = errno("ibv_detach_mcast", JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT);

        private QueuePairs()
        {
        }
    }

    /**
     * The data path: entry points {@code verbs.h} defines as {@code static inline}, called through a
     * function pointer of the context (the first argument); they return their error, no errno capture.
     */
    static final class DataPath
    {
        /** {@code int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)} */
        static final MethodHandle POLL_CQ = inline(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        /** {@code int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only)} */
        static final MethodHandle REQ_NOTIFY_CQ = inline(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        /** {@code int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)} */
        static final MethodHandle POST_SEND = inline(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        /** {@code int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)} */
        static final MethodHandle POST_RECV = inline(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

        private DataPath()
        {
        }
    }

    private LibIbverbs()
    {
    }

    /** Why libibverbs cannot be used, or {@code null} when it is loaded and every symbol was found. */
    static String unavailableReason()
    {
        return UNAVAILABLE_REASON;
    }

    /** Throws a {@link VerbsException} naming {@code call} when the library is not usable. */
    static void requireAvailable(final String call)
    {
        if (UNAVAILABLE_REASON != null)
        {
            throw new VerbsException(call, Errno.ENOSYS, UNAVAILABLE_REASON);
        }
    }

    /** A fresh errno capture segment, for one call. */
    static MemorySegment errnoState(final Arena arena)
    {
        return arena.allocate(ERRNO_STATE);
    }

    /**
     * This thread's errno capture, allocated at its first call and reused by every one after: a call then costs no
     * arena. An automatic arena, so a thread that ends takes it with it and no close hands shakes with other threads.
     */
    private static final ThreadLocal<MemorySegment> THREAD_ERRNO_STATE = ThreadLocal.withInitial(() -> Arena.ofAuto()
        .allocate(ERRNO_STATE));

    static MemorySegment threadErrnoState()
    {
        return THREAD_ERRNO_STATE.get();
    }

    static int errno(final MemorySegment errnoState)
    {
        return errnoState.get(JAVA_INT, ERRNO_OFFSET);
    }

    /**
     * The errno of a libibverbs call that returned {@code rc != 0}: libibverbs returns the errno value
     * itself from most calls, -1 with errno set from a few, and -errno from some providers.
     */
    static int errnoOf(final int rc, final MemorySegment errnoState)
    {
        if (rc > 0)
        {
            return rc;
        }
        final int captured = errno(errnoState);
        return captured != 0 ? captured : -rc;
    }

    /** A call of an exported function returning a pointer, NULL with errno set on failure. */
    @FunctionalInterface
    interface PointerCall
    {
        MemorySegment invoke(MemorySegment errnoState) throws Throwable;
    }

    /** A call of an exported function returning 0, or an errno (or -1 with errno set) on failure. */
    @FunctionalInterface
    interface StatusCall
    {
        int invoke(MemorySegment errnoState) throws Throwable;
    }

    /**
     * Runs a constructor-like call ({@code ibv_alloc_pd}, {@code ibv_create_cq}...).
     *
     * @return the non-NULL pointer it returned.
     * @throws VerbsException naming {@code call}, the errno and {@code detail} when it returned NULL.
     */
    static MemorySegment create(final String call, final String detail, final PointerCall nativeCall)
    {
        return create(call, () -> detail, nativeCall);
    }

    /** As {@link #create(String, String, PointerCall)}, the detail's text made only when the call failed. */
    static MemorySegment create(final String call, final Supplier<String> detail, final PointerCall nativeCall)
    {
        requireAvailable(call);
        final MemorySegment errnoState = threadErrnoState();
        final MemorySegment result;
        try
        {
            result = nativeCall.invoke(errnoState);
        }
        catch (final Throwable ex)
        {
            throw unexpected(call, ex);
        }
        if (result.address() == 0)
        {
            throw new VerbsException(call, errno(errnoState), detail.get());
        }
        return result;
    }

    /**
     * Runs a call that returns a status ({@code ibv_destroy_qp}, {@code ibv_modify_qp}...).
     *
     * @throws VerbsException naming {@code call}, the errno and {@code detail} when it failed.
     */
    static void check(final String call, final String detail, final StatusCall nativeCall)
    {
        check(call, () -> detail, nativeCall);
    }

    /**
     * As {@link #check(String, String, StatusCall)}, with the detail made only for the exception: an object's
     * own text ({@code RC QP 17 on rxe0}) for its destroy, which runs once per connection.
     */
    static void check(final String call, final Supplier<String> detail, final StatusCall nativeCall)
    {
        final int errno = status(call, nativeCall);
        if (errno != 0)
        {
            throw new VerbsException(call, errno, detail.get());
        }
    }

    /**
     * Runs a call that returns a status, for a caller that names its failure itself (and so builds no text when it
     * succeeds).
     *
     * @return 0, or the errno it failed with.
     */
    static int status(final String call, final StatusCall nativeCall)
    {
        requireAvailable(call);
        final MemorySegment errnoState = threadErrnoState();
        final int rc;
        try
        {
            rc = nativeCall.invoke(errnoState);
        }
        catch (final Throwable ex)
        {
            throw unexpected(call, ex);
        }
        return rc == 0 ? 0 : errnoOf(rc, errnoState);
    }

    /** Wraps a throwable from {@code invokeExact} that is not one of ours: it is a JVM or binding bug. */
    static RuntimeException unexpected(final String call, final Throwable ex)
    {
        if (ex instanceof RuntimeException runtime)
        {
            return runtime;
        }
        if (ex instanceof Error error)
        {
            throw error;
        }
        return new IllegalStateException(call + ": unexpected " + ex, ex);
    }

    /** An exported function whose errno is captured (the capture segment is its first argument). */
    private static MethodHandle errno(final String symbol, final MemoryLayout result, final MemoryLayout... args)
    {
        return bind(symbol, result, args, CAPTURE_ERRNO);
    }

    /** An exported function that sets no errno worth reading. */
    private static MethodHandle plain(final String symbol, final MemoryLayout result, final MemoryLayout... args)
    {
        return bind(symbol, result, args);
    }

    private static MethodHandle bind(final String symbol, final MemoryLayout result, final MemoryLayout[] args,
        final Linker.Option... options)
    {
        if (!SYMBOLS.contains(symbol))
        {
            // a binding bug, loud on the first use: SYMBOLS is what unavailableReason() checked
            throw new IllegalStateException(symbol + " is bound but not in LibIbverbs.SYMBOLS");
        }
        if (LOOKUP == null)
        {
            return null;
        }
        final MemorySegment address = LOOKUP.find(symbol).orElseThrow();
        final FunctionDescriptor descriptor = result == null
            ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(result, args);
        return LINKER.downcallHandle(address, descriptor, options);
    }

    /** A static inline entry point, called through a function pointer; null when native access is denied. */
    private static MethodHandle inline(final FunctionDescriptor descriptor)
    {
        try
        {
            return LINKER.downcallHandle(descriptor);
        }
        catch (final IllegalCallerException ex)
        {
            return null;
        }
    }
}

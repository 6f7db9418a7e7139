package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.rdmacm.verbs.IbvLayouts.IBV_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.IBV_CONTEXT_OPS;
import static dev.rdmacm.verbs.IbvLayouts.IBV_PORT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_RECV_WR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_SEND_WR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_SGE;
import static dev.rdmacm.verbs.IbvLayouts.IBV_WC;
import static dev.rdmacm.verbs.IbvLayouts.VERBS_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A test double for what no machine without RDMA hardware has: an {@code ibv_context} laid out in
 * native memory, inside a {@code verbs_context}, whose function pointers are Java upcalls. Every
 * slot of the ops table that the binding must not call points at an upcall that records the slot's
 * name, so a wrong offset shows up as a recorded wrong call rather than a crash.
 * <p>
 * Upcalls never throw (an exception escaping an upcall kills the JVM): they record what they saw
 * as text in {@link #calls()}, and the test asserts afterwards.
 */
final class FakeVerbsContext implements AutoCloseable
{
    /** What the query_port upcall writes: recognisable values in every field, incl. port_cap_flags2. */
    static final int PORT_LID = 0x15;
    static final int PORT_SM_LID = 0x1;
    static final int PORT_CAP_FLAGS2 = 0x0032;
    static final long PORT_CAP_FLAGS = 0x2651_e848L;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment verbsContext;
    private final MemorySegment context;
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private volatile int result;

    FakeVerbsContext()
    {
        verbsContext = arena.allocate(VERBS_CONTEXT);
        context = verbsContext.asSlice(offset(VERBS_CONTEXT, "context"), IBV_CONTEXT);
        context.set(ADDRESS, offset(IBV_CONTEXT, "abi_compat"), MemorySegment.ofAddress(-1L));
        verbsContext.set(JAVA_LONG, offset(VERBS_CONTEXT, "sz"), VERBS_CONTEXT.byteSize());
        final long ops = offset(IBV_CONTEXT, "ops");
        for (final var slot : IBV_CONTEXT_OPS.memberLayouts())
        {
            final String name = slot.name().orElseThrow();
            context.set(ADDRESS, ops + offset(IBV_CONTEXT_OPS, name), upcall("wrongSlot",
                MethodType.methodType(int.class, String.class, MemorySegment.class, MemorySegment.class, MemorySegment.class),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), name));
        }
        context.set(ADDRESS, ops + offset(IBV_CONTEXT_OPS, "poll_cq"), upcall("pollCq",
            MethodType.methodType(int.class, MemorySegment.class, int.class, MemorySegment.class),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), null));
        context.set(ADDRESS, ops + offset(IBV_CONTEXT_OPS, "req_notify_cq"), upcall("reqNotifyCq",
            MethodType.methodType(int.class, MemorySegment.class, int.class),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), null));
        context.set(ADDRESS, ops + offset(IBV_CONTEXT_OPS, "post_send"), upcall("postSend",
            MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), null));
        context.set(ADDRESS, ops + offset(IBV_CONTEXT_OPS, "post_recv"), upcall("postRecv",
            MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), null));
        verbsContext.set(ADDRESS, offset(VERBS_CONTEXT, "query_port"), upcall("queryPort",
            MethodType.methodType(int.class, MemorySegment.class, byte.class, MemorySegment.class, long.class),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG), null));
    }

    /** The {@code struct ibv_context *} to hand to the binding. */
    MemorySegment context()
    {
        return context;
    }

    MemorySegment verbsContext()
    {
        return verbsContext;
    }

    /** What every upcall returns from now on (0, a count, or an error). */
    FakeVerbsContext returning(final int value)
    {
        result = value;
        return this;
    }

    /** The calls recorded so far, one line each. */
    List<String> calls()
    {
        return List.copyOf(calls);
    }

    Arena arena()
    {
        return arena;
    }

    private MemorySegment upcall(final String method, final MethodType type, final FunctionDescriptor descriptor,
        final String boundName)
    {
        try
        {
            MethodHandle target = MethodHandles.lookup().findVirtual(FakeVerbsContext.class, method, type).bindTo(this);
            if (boundName != null)
            {
                target = MethodHandles.insertArguments(target, 0, boundName);
            }
            return Linker.nativeLinker().upcallStub(target, descriptor, arena);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private int wrongSlot(final String slot, final MemorySegment a, final MemorySegment b, final MemorySegment c)
    {
        calls.add("WRONG SLOT " + slot);
        return -999;
    }

    private int pollCq(final MemorySegment cq, final int numEntries, final MemorySegment wc)
    {
        try
        {
            calls.add("poll_cq cq=" + hex(cq) + " num_entries=" + numEntries + " wc=" + hex(wc));
            if (result > 0)
            {
                final MemorySegment entry = wc.reinterpret(IBV_WC.byteSize());
                entry.set(JAVA_LONG, offset(IBV_WC, "wr_id"), 42L);
                entry.set(JAVA_INT, offset(IBV_WC, "status"), IbvConstants.IBV_WC_SUCCESS);
                entry.set(JAVA_INT, offset(IBV_WC, "opcode"), IbvConstants.IBV_WC_RECV);
                entry.set(JAVA_INT, offset(IBV_WC, "byte_len"), 296);
                entry.set(JAVA_INT, offset(IBV_WC, "qp_num"), 0x1234);
                entry.set(JAVA_INT, offset(IBV_WC, "src_qp"), 1);
                entry.set(JAVA_INT, offset(IBV_WC, "wc_flags"), IbvConstants.IBV_WC_GRH);
                entry.set(JAVA_SHORT, offset(IBV_WC, "pkey_index"), (short)2);
                entry.set(JAVA_SHORT, offset(IBV_WC, "slid"), (short)0xbeef);
                entry.set(JAVA_BYTE, offset(IBV_WC, "sl"), (byte)3);
            }
        }
        catch (final Throwable ex)
        {
            calls.add("poll_cq upcall failed: " + ex);
        }
        return result;
    }

    private int reqNotifyCq(final MemorySegment cq, final int solicitedOnly)
    {
        calls.add("req_notify_cq cq=" + hex(cq) + " solicited_only=" + solicitedOnly);
        return result;
    }

    private int postSend(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        try
        {
            final MemorySegment request = wr.reinterpret(IBV_SEND_WR.byteSize());
            final MemorySegment sge = request.get(ADDRESS, offset(IBV_SEND_WR, "sg_list")).reinterpret(IBV_SGE.byteSize());
            calls.add("post_send qp=" + hex(qp)
                + " wr_id=" + request.get(JAVA_LONG, offset(IBV_SEND_WR, "wr_id"))
                + " next=" + hex(request.get(ADDRESS, offset(IBV_SEND_WR, "next")))
                + " num_sge=" + request.get(JAVA_INT, offset(IBV_SEND_WR, "num_sge"))
                + " opcode=" + request.get(JAVA_INT, offset(IBV_SEND_WR, "opcode"))
                + " send_flags=" + request.get(JAVA_INT, offset(IBV_SEND_WR, "send_flags"))
                + " ah=" + hex(request.get(ADDRESS, offset(IBV_SEND_WR, "wr", "ud", "ah")))
                + " remote_qpn=" + request.get(JAVA_INT, offset(IBV_SEND_WR, "wr", "ud", "remote_qpn"))
                + " remote_qkey=0x" + Integer.toHexString(request.get(JAVA_INT, offset(IBV_SEND_WR, "wr", "ud", "remote_qkey")))
                + " " + sge(sge));
            if (result != 0)
            {
                badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, wr);
            }
        }
        catch (final Throwable ex)
        {
            calls.add("post_send upcall failed: " + ex);
        }
        return result;
    }

    private int postRecv(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        try
        {
            final MemorySegment request = wr.reinterpret(IBV_RECV_WR.byteSize());
            final MemorySegment sge = request.get(ADDRESS, offset(IBV_RECV_WR, "sg_list")).reinterpret(IBV_SGE.byteSize());
            calls.add("post_recv qp=" + hex(qp)
                + " wr_id=" + request.get(JAVA_LONG, offset(IBV_RECV_WR, "wr_id"))
                + " next=" + hex(request.get(ADDRESS, offset(IBV_RECV_WR, "next")))
                + " num_sge=" + request.get(JAVA_INT, offset(IBV_RECV_WR, "num_sge"))
                + " " + sge(sge));
            if (result != 0)
            {
                badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, wr);
            }
        }
        catch (final Throwable ex)
        {
            calls.add("post_recv upcall failed: " + ex);
        }
        return result;
    }

    private int queryPort(final MemorySegment ctx, final byte port, final MemorySegment attr, final long length)
    {
        try
        {
            calls.add("query_port ctx=" + hex(ctx) + " port=" + port + " len=" + length);
            final MemorySegment a = attr.reinterpret(IBV_PORT_ATTR.byteSize());
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "state"), IbvConstants.IBV_PORT_ACTIVE);
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "max_mtu"), 5);
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "active_mtu"), 4);
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "gid_tbl_len"), 128);
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "port_cap_flags"), (int)PORT_CAP_FLAGS);
            a.set(JAVA_INT, offset(IBV_PORT_ATTR, "max_msg_sz"), 0x4000_0000);
            a.set(JAVA_SHORT, offset(IBV_PORT_ATTR, "pkey_tbl_len"), (short)128);
            a.set(JAVA_SHORT, offset(IBV_PORT_ATTR, "lid"), (short)PORT_LID);
            a.set(JAVA_SHORT, offset(IBV_PORT_ATTR, "sm_lid"), (short)PORT_SM_LID);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "lmc"), (byte)2);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "sm_sl"), (byte)1);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "active_width"), (byte)2);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "active_speed"), (byte)32);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "phys_state"), (byte)5);
            a.set(JAVA_BYTE, offset(IBV_PORT_ATTR, "link_layer"), (byte)IbvConstants.IBV_LINK_LAYER_INFINIBAND);
            a.set(JAVA_SHORT, offset(IBV_PORT_ATTR, "port_cap_flags2"), (short)PORT_CAP_FLAGS2);
        }
        catch (final Throwable ex)
        {
            calls.add("query_port upcall failed: " + ex);
        }
        return result;
    }

    private static String sge(final MemorySegment sge)
    {
        return "sge.addr=" + hex(MemorySegment.ofAddress(sge.get(JAVA_LONG, offset(IBV_SGE, "addr"))))
            + " sge.length=" + sge.get(JAVA_INT, offset(IBV_SGE, "length"))
            + " sge.lkey=0x" + Integer.toHexString(sge.get(JAVA_INT, offset(IBV_SGE, "lkey")));
    }

    static String hex(final MemorySegment pointer)
    {
        return "0x" + Long.toHexString(pointer.address());
    }

    @Override
    public void close()
    {
        arena.close();
    }
}

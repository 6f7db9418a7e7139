package dev.rdmacm.resolver;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.Route;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The steps of one resolution, appended by the event loop as it runs them (re-runs after a
 * neighbour event append the route and link steps again, as the kernel repeats them).
 * <p>
 * Every pending resolution holds one while it waits, so the steps are kept as a log in one byte
 * array, exactly as long as the steps written, and become {@link ResolutionStep} records only when
 * read: 10,000 resolutions waiting for their neighbours held 40,000 step records, their strings and
 * lists before, 288 bytes a trace (issue 15, {@code PendingResolutionHeap}). Names, and details
 * recorded with {@link #recordShared}, are numbers into the process's {@link SharedTraceText}.
 * <p>
 * The steps of a resolution that succeeds are recorded as raw values, and become text only when read
 * (issue 29: no string is built on a path that succeeds): a route as its addresses and ifindex in the
 * log, a link, a neighbour entry or a port binding as a reference to the immutable record the resolver
 * holds anyway (the mirror's, shared by every resolution through it). One step:
 * <pre>
 *   +-----------+--------------------+---------------+---------------+------+------------------+
 *   |  name     |  (inline name)     |  start        |  took         | form |  detail          |
 *   +-----------+--------------------+---------------+---------------+------+------------------+
 *    text tag    tag's bytes, if any   zigzag varint   zigzag varint   byte   as the form says
 *
 *   text tag:    varint; 0 no text, 2k+1 shared text k, 2(n+1) the text inline, its n bytes of UTF-8 following
 *   start, took: nanoseconds after the trace's start, and the step's duration
 *   form:        TEXT: a text tag [+ bytes]; VALUE: a varint index into the values (a Link, a Neighbour,
 *                an RdmaPortBinding, a next hop without entry); ROUTE: address length (4 or 16),
 *                destination, flags (1 gateway, 2 preferred source, 4 local), [gateway], oif varint, [source]
 * </pre>
 * The varints are unsigned LEB128, 7 bits a byte, low bits first: a step of a few microseconds takes
 * two or three bytes for each time.
 */
public final class ResolutionTrace
{
    private static final byte[] EMPTY = new byte[0];

    private static final Object[] NO_VALUES = new Object[0];
    private static final byte FORM_TEXT = 0;
    private static final byte FORM_VALUE = 1;
    private static final byte FORM_ROUTE = 2;
    private static final int ROUTE_GATEWAY = 1;
    private static final int ROUTE_SOURCE = 2;
    private static final int ROUTE_LOCAL = 4;

    private static final VarHandle STARTED_AT;

    static
    {
        try
        {
            STARTED_AT = MethodHandles.lookup().findVarHandle(ResolutionTrace.class, "startedAt", Instant.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long startNanos;
    private byte[] log = EMPTY;
    private Object[] values = NO_VALUES;
    /**
     * {@link #startedAt()}'s answer once it was first asked, so that every read gives the same instant; a reference,
     * not a long, so that it takes the 4 bytes the object's alignment left over (32 bytes with compressed oops).
     */
    private volatile Instant startedAt;

    /**
     * A trace of a resolution that began at {@code startNanos}, on {@code System.nanoTime}'s clock.
     *
     * @param startNanos when the call began: the steps are timed from it.
     */
    public ResolutionTrace(final long startNanos)
    {
        this.startNanos = startNanos;
    }

    /** {@return when the resolution began, on {@code System.nanoTime}'s clock} */
    public long startNanos()
    {
        return startNanos;
    }

    /**
     * When the resolution began, on the wall clock: the wall clock less the time since {@link #startNanos}, as they
     * are at the first call, and the same instant at every call after. A trace reads no wall clock while it resolves
     * (each read is a system call in a TCG guest, and nothing on the resolving path asks for it), so what lies
     * between the start and that first call counts: a step of the wall clock (settimeofday, an NTP or chrony step)
     * moves the answer by the step, and a suspend of the machine makes it later by the suspend, as
     * {@code System.nanoTime} (CLOCK_MONOTONIC) does not count it. Before session 8 the trace read the wall clock as
     * it was made, which neither moves. A slew (adjtime) does not move it: it changes both clocks' rates alike.
     *
     * @return the wall-clock time of {@link #startNanos}, the same instant every time.
     */
    public Instant startedAt()
    {
        final Instant fixed = startedAt;
        if (fixed != null)
        {
            return fixed;
        }
        final long since = System.nanoTime() - startNanos;
        final Instant derived = Instant.now().minusNanos(since);
        // two first readers at once each derived their own: the first stored is the one both return
        final Instant stored = (Instant)STARTED_AT.compareAndExchange(this, (Instant)null, derived);
        return stored == null ? derived : stored;
    }

    /**
     * Records a step that began at {@code stepStartNanos} (System.nanoTime) and ends now.
     *
     * @param name           the step's name.
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param detail         what it found, or null.
     */
    public void record(final String name, final long stepStartNanos, final String detail)
    {
        append(name, stepStartNanos, detail, false);
    }

    /**
     * As {@link #record}, for a detail that many resolutions record alike (a netdev's description, a
     * port): it is kept once in the process, and the log holds its number.
     *
     * @param name           the step's name.
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param detail         what it found.
     */
    public void recordShared(final String name, final long stepStartNanos, final String detail)
    {
        append(name, stepStartNanos, detail, true);
    }

    /**
     * A step whose text is made only when the trace is read, from values that do not change (a path a
     * route carries, a netdev's MTU as it was read): the resolving thread builds no string.
     *
     * @param name           the step's name.
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param detail         what it found, as text; called once per reading of the trace.
     */
    public void recordWhenRead(final String name, final long stepStartNanos, final Supplier<String> detail)
    {
        appendValue(name, stepStartNanos, System.nanoTime(), new TraceText.WhenRead(detail));
    }

    /**
     * As {@link #recordWhenRead}, for a step recorded at one reading of the clock, with no duration of its own: a
     * step that only computes from values already read (a RoCE path on the caller's thread), where timing it would
     * cost a clock read (a system call in a TCG guest) longer than the step.
     *
     * @param name     the step's name.
     * @param atNanos  when the step ran, on {@code System.nanoTime}'s clock.
     * @param detail   what it found, as text; called once per reading of the trace.
     */
    public void recordAtWhenRead(final String name, final long atNanos, final Supplier<String> detail)
    {
        appendValue(name, atNanos, atNanos, new TraceText.WhenRead(detail));
    }

    /**
     * The step "route": the route's addresses and output ifindex, text when read.
     *
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param route          the route the kernel answered.
     * @return when the step ended: the start of a step that follows at once, without a clock read of its own.
     */
    public long route(final long stepStartNanos, final Route route)
    {
        final long now = System.nanoTime();
        final byte[] destination = route.destination().getAddress();
        final InetAddress gateway = route.hasGateway() ? route.gateway() : null;
        final InetAddress source = route.preferredSource() == null ? null : route.effectiveSource();
        final int flags = (gateway != null ? ROUTE_GATEWAY : 0) | (source != null ? ROUTE_SOURCE : 0) |
            (route.isLocal() ? ROUTE_LOCAL : 0);
        final int addresses = 1 + (gateway != null ? 1 : 0) + (source != null ? 1 : 0);
        final Text name = Text.name("route");
        final long start = zigzag(stepStartNanos - startNanos);
        final long took = zigzag(now - stepStartNanos);
        final int length = name.length() + varintLength(start) + varintLength(took) + 1 + 1 + 1 +
            addresses * destination.length + varintLength(route.outputIfindex());
        synchronized (this)
        {
            final byte[] grown = Arrays.copyOf(log, log.length + length);
            int at = name.put(grown, log.length);
            at = putVarint(grown, at, start);
            at = putVarint(grown, at, took);
            grown[at++] = FORM_ROUTE;
            grown[at++] = (byte)destination.length;
            System.arraycopy(destination, 0, grown, at, destination.length);
            at += destination.length;
            grown[at++] = (byte)flags;
            if (gateway != null)
            {
                at = putAddress(grown, at, gateway);
            }
            at = putVarint(grown, at, route.outputIfindex());
            if (source != null)
            {
                putAddress(grown, at, source);
            }
            log = grown;
        }
        return now;
    }

    /**
     * The step "local address": the bound source and the netdev it is on, text when read.
     *
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param source         the bound source address.
     * @param netdev         the netdev it is on.
     */
    public void localAddress(final long stepStartNanos, final InetAddress source, final Link netdev)
    {
        appendValue("local address", stepStartNanos, System.nanoTime(), new TraceText.LocalAddress(source, netdev));
    }

    /**
     * The step "link": the netdev the resolution goes through, text when read.
     *
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param link           the netdev.
     * @return when the step ended, as {@link #route}.
     */
    public long link(final long stepStartNanos, final Link link)
    {
        return appendValue("link", stepStartNanos, System.nanoTime(), link);
    }

    /**
     * The step "neighbour": the entry found for {@code nextHop}, or null when there is none; text when read.
     *
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param nextHop        the address whose entry was looked up.
     * @param neighbour      the entry, or null.
     * @return when the step ended, as {@link #route}.
     */
    public long neighbour(final long stepStartNanos, final InetAddress nextHop, final Neighbour neighbour)
    {
        return appendValue("neighbour", stepStartNanos, System.nanoTime(), neighbour != null ? neighbour : nextHop);
    }

    /**
     * The step "gid match": the RDMA port the source's GID is on, text when read.
     *
     * @param stepStartNanos when the step began, on {@code System.nanoTime}'s clock; it ends now.
     * @param binding        the port, GID index and GID.
     * @return when the step ended, as {@link #route}.
     */
    public long gidMatch(final long stepStartNanos, final RdmaPortBinding binding)
    {
        return appendValue("gid match", stepStartNanos, System.nanoTime(), binding);
    }

    /** {@return the steps in the order they began (a wait is recorded when it ends but began before the re-run)} */
    public List<ResolutionStep> steps()
    {
        final byte[] steps;
        final Object[] held;
        synchronized (this)
        {
            steps = log;
            held = values;
        }
        return decode(steps, held);
    }

    /**
     * The steps so far, as {@link #steps()} gives them, made only when the list is first read: a
     * resolution that succeeds carries its steps, and most are never read, so their text (addresses,
     * GIDs, a route) is not made on the resolving thread. The log and the values are copied on write, so
     * the two arrays taken now stay as they are.
     *
     * @return an unmodifiable list of the steps taken until now.
     */
    public List<ResolutionStep> stepsWhenRead()
    {
        synchronized (this)
        {
            return new TraceSteps(log, values);
        }
    }

    /** The steps a log holds, in the order they began. */
    static List<ResolutionStep> decode(final byte[] steps, final Object[] held)
    {
        final List<ResolutionStep> ordered = new ArrayList<>();
        final Reader reader = new Reader(steps);
        while (reader.at < steps.length)
        {
            final String name = reader.text();
            final long start = unzigzag(reader.varint());
            final long took = unzigzag(reader.varint());
            final String detail = switch (steps[reader.at++])
            {
                case FORM_VALUE -> TraceText.of(held[(int)reader.varint()]);
                case FORM_ROUTE -> reader.route();
                default -> reader.text();
            };
            ordered.add(new ResolutionStep(name, start, took, detail));
        }
        ordered.sort(Comparator.comparingLong(ResolutionStep::startNanos));
        return List.copyOf(ordered);
    }

    /**
     * The first step called {@code name}.
     *
     * @param name the step's name, e.g. {@code route}.
     * @return the step, or null when the resolution took none of that name.
     */
    public ResolutionStep find(final String name)
    {
        for (final ResolutionStep step : steps())
        {
            if (step.name().equals(name))
            {
                return step;
            }
        }
        return null;
    }

    private void append(final String name, final long stepStartNanos, final String detail, final boolean shared)
    {
        final long now = System.nanoTime();
        final Text nameText = Text.name(name);
        final Text detailText = Text.of(detail, shared);
        final long start = zigzag(stepStartNanos - startNanos);
        final long took = zigzag(now - stepStartNanos);
        final int length = nameText.length() + varintLength(start) + varintLength(took) + 1 + detailText.length();
        synchronized (this)
        {
            final byte[] grown = Arrays.copyOf(log, log.length + length);
            int at = nameText.put(grown, log.length);
            at = putVarint(grown, at, start);
            at = putVarint(grown, at, took);
            grown[at++] = FORM_TEXT;
            detailText.put(grown, at);
            log = grown;
        }
    }

    private long appendValue(final String name, final long stepStartNanos, final long now, final Object value)
    {
        final Text nameText = Text.name(name);
        final long start = zigzag(stepStartNanos - startNanos);
        final long took = zigzag(now - stepStartNanos);
        synchronized (this)
        {
            final int index = values.length;
            final int length = nameText.length() + varintLength(start) + varintLength(took) + 1 + varintLength(index);
            final byte[] grown = Arrays.copyOf(log, log.length + length);
            int at = nameText.put(grown, log.length);
            at = putVarint(grown, at, start);
            at = putVarint(grown, at, took);
            grown[at++] = FORM_VALUE;
            putVarint(grown, at, index);
            values = Arrays.copyOf(values, index + 1);
            values[index] = value;
            log = grown;
        }
        return now;
    }

    private static int putAddress(final byte[] log, final int offset, final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        System.arraycopy(bytes, 0, log, offset, bytes.length);
        return offset + bytes.length;
    }

    /** A name or detail as the log writes it: its tag and, when inline, its bytes. */
    private record Text(long tag, byte[] bytes)
    {
        private static final Text NULL = new Text(0, EMPTY);
        /**
         * The step names' texts by their string's hash: each slot holds one immutable pair, so a racing writer
         * leaves either pair, and a miss only costs the map's lookup.
         */
        private static final Named[] NAMED = new Named[64];

        /**
         * A step's name: a literal, so found again by identity in {@link #NAMED}, without the shared map's hashing
         * and comparing (a map lookup per step showed in the caller's route profile).
         */
        static Text name(final String name)
        {
            final int slot = name.hashCode() & (NAMED.length - 1);
            final Named named = NAMED[slot];
            if (named != null && named.name == name)
            {
                return named.text;
            }
            final Text text = of(name, true);
            NAMED[slot] = new Named(name, text);
            return text;
        }

        static Text of(final String text, final boolean shared)
        {
            if (text == null)
            {
                return NULL;
            }
            final int code = shared ? SharedTraceText.codeOf(text) : SharedTraceText.NONE;
            if (code != SharedTraceText.NONE)
            {
                return new Text(2L * code + 1, EMPTY);
            }
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            return new Text(2L * (utf8.length + 1), utf8);
        }

        int length()
        {
            return varintLength(tag) + bytes.length;
        }

        int put(final byte[] log, final int offset)
        {
            final int at = putVarint(log, offset, tag);
            System.arraycopy(bytes, 0, log, at, bytes.length);
            return at + bytes.length;
        }
    }

    /** A shared text and the string it was found for. */
    private record Named(String name, Text text)
    {
    }

    private static long zigzag(final long value)
    {
        return value << 1 ^ value >> 63;
    }

    private static long unzigzag(final long value)
    {
        return value >>> 1 ^ -(value & 1);
    }

    private static int varintLength(final long value)
    {
        return Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
    }

    private static int putVarint(final byte[] log, final int offset, final long value)
    {
        int at = offset;
        long rest = value;
        while ((rest & ~0x7FL) != 0)
        {
            log[at++] = (byte)(rest & 0x7F | 0x80);
            rest >>>= 7;
        }
        log[at++] = (byte)rest;
        return at;
    }

    /** A cursor over a log. */
    private static final class Reader
    {
        private final byte[] log;
        private int at;

        Reader(final byte[] log)
        {
            this.log = log;
        }

        long varint()
        {
            long value = 0;
            int shift = 0;
            byte b;
            do
            {
                b = log[at++];
                value |= (long)(b & 0x7F) << shift;
                shift += 7;
            }
            while (b < 0);
            return value;
        }

        /** A ROUTE form's detail, as the resolver described a route before it recorded raw values. */
        String route()
        {
            final int length = log[at++];
            final InetAddress destination = address(length);
            final int flags = log[at++];
            final InetAddress gateway = (flags & ROUTE_GATEWAY) != 0 ? address(length) : null;
            final long oif = varint();
            final InetAddress source = (flags & ROUTE_SOURCE) != 0 ? address(length) : null;
            return destination.getHostAddress() + (gateway != null ? " via " + gateway.getHostAddress() : "") +
                " oif " + oif + (source != null ? " src " + source.getHostAddress() : "") +
                ((flags & ROUTE_LOCAL) != 0 ? " (local)" : "");
        }

        private InetAddress address(final int length)
        {
            final byte[] bytes = Arrays.copyOfRange(log, at, at + length);
            at += length;
            try
            {
                return InetAddress.getByAddress(bytes);
            }
            catch (final UnknownHostException ex)
            {
                throw new IllegalStateException("a trace's route holds a " + length + "-byte address", ex);
            }
        }

        String text()
        {
            final long tag = varint();
            if (tag == 0)
            {
                return null;
            }
            if ((tag & 1) == 1)
            {
                return SharedTraceText.text((int)(tag >>> 1));
            }
            final int length = (int)(tag >>> 1) - 1;
            final String text = new String(log, at, length, StandardCharsets.UTF_8);
            at += length;
            return text;
        }
    }
}

package dev.rdmacm.ibcm;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.cm.IbCmState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Two of our CM engines (an active and a passive port) on one {@link ManualNanoClock}, joined by an
 * {@link InMemoryMadPipe}: the engine tests' fixture. Every event and every state transition of both
 * sides is recorded with the clock's time.
 */
final class BackToBackCms
{
    static final Gid ACTIVE_GID = Gid.parse("fe80::a");
    static final Gid PASSIVE_GID = Gid.parse("fe80::b");
    static final long ACTIVE_CA_GUID = 0x0002_c903_00aa_0001L;
    static final long PASSIVE_CA_GUID = 0x0002_c903_00bb_0002L;
    /** Soft-RoCE's {@code local_ca_ack_delay} (rxe_param.h RXE_LOCAL_CA_ACK_DELAY). */
    static final int CA_ACK_DELAY = 15;
    static final long SERVICE_ID = ServiceId.of(PortSpace.TCP, 20000);
    static final int ACTIVE_QPN = 0x11;
    static final int PASSIVE_QPN = 0x22;

    record Event(String side, IbCmConnection connection, IbCmEvent event, long atNanos)
    {
    }

    record Transition(String side, IbCmConnection connection, IbCmState from, IbCmState to, long atNanos)
    {
    }

    final ManualNanoClock clock = new ManualNanoClock();
    final long startNanos = clock.nanoTime();
    final InMemoryMadPipe pipe = new InMemoryMadPipe(clock);
    final List<Event> events = new ArrayList<>();
    final List<Transition> transitions = new ArrayList<>();
    final Side active;
    final Side passive;

    final class Side
    {
        final String name;
        final Gid gid;
        final DeadlineTimers<IbCmConnection> timers = new DeadlineTimers<>(clock);
        final IbCmEngine engine;
        /** What the consumer's handler does with each event after it is recorded. */
        IbCmEventHandler reaction = (connection, event) -> { };

        Side(final String name, final Gid gid, final long caGuid, final long seed)
        {
            this.name = name;
            this.gid = gid;
            this.engine = new IbCmEngine(new IbCmEngine.Configuration(caGuid, CA_ACK_DELAY), timers,
                pipe.senderFor(gid), new Random(seed),
                (connection, from, to, now) -> transitions.add(new Transition(name, connection, from, to, now)));
            pipe.attach(gid, engine);
        }

        IbCmEventHandler handler()
        {
            return (connection, event) ->
            {
                events.add(new Event(name, connection, event, clock.nanoTime()));
                reaction.onEvent(connection, event);
            };
        }

        IbCmConnection connection()
        {
            return engine.createConnection(handler());
        }

        List<IbCmEvent> events()
        {
            return events.stream().filter(e -> e.side().equals(name)).map(Event::event).toList();
        }

        <E extends IbCmEvent> List<E> events(final Class<E> type)
        {
            return events().stream().filter(type::isInstance).map(type::cast).toList();
        }

        /** The state sequence of {@code connection}, from its first transition on. */
        List<IbCmState> states(final IbCmConnection connection)
        {
            final List<IbCmState> states = new ArrayList<>();
            for (final Transition transition : transitions)
            {
                if (transition.connection() == connection)
                {
                    if (states.isEmpty())
                    {
                        states.add(transition.from());
                    }
                    states.add(transition.to());
                }
            }
            return states;
        }

        /** The connection the listener made for the last REQ or SIDR_REQ. */
        IbCmConnection accepted()
        {
            for (int i = events.size() - 1; i >= 0; i--)
            {
                final Event event = events.get(i);
                if (event.side().equals(name) && (event.event() instanceof IbCmEvent.RequestReceived ||
                    event.event() instanceof IbCmEvent.SidrRequestReceived))
                {
                    return event.connection();
                }
            }
            throw new AssertionError(name + " received no REQ");
        }
    }

    BackToBackCms()
    {
        active = new Side("active", ACTIVE_GID, ACTIVE_CA_GUID, 1);
        passive = new Side("passive", PASSIVE_GID, PASSIVE_CA_GUID, 2);
    }

    /** The passive side's listeners (and anything else still open there). */
    java.util.List<IbCmConnection> engineListeners()
    {
        return passive.engine.connections();
    }

    /** Delivers and runs both engines' due timers until nothing moves. */
    void settle()
    {
        do
        {
            active.engine.doWork(clock.nanoTime());
            passive.engine.doWork(clock.nanoTime());
        }
        while (pipe.deliverAll() > 0);
    }

    /**
     * Moves the clock to {@code startNanos + offsetNanos} as a loop would: it wakes at every deadline on
     * the way (so that a timer set by a timer is measured from when it fired) and settles each time.
     */
    void advanceTo(final long offsetNanos)
    {
        final long target = startNanos + offsetNanos;
        if (target - clock.nanoTime() < 0)
        {
            throw new IllegalArgumentException("the clock is past " + offsetNanos + " ns already");
        }
        while (true)
        {
            final long earliest = Math.min(active.timers.earliestDeadline(), passive.timers.earliestDeadline());
            final long next = earliest - target <= 0 && earliest != Long.MAX_VALUE ? earliest : target;
            if (next - clock.nanoTime() > 0)
            {
                clock.advanceNanos(next - clock.nanoTime());
            }
            settle();
            if (next == target)
            {
                return;
            }
        }
    }

    void advance(final Duration step)
    {
        advanceTo(elapsedNanos() + step.toNanos());
    }

    long elapsedNanos()
    {
        return clock.nanoTime() - startNanos;
    }

    /** The RoCE path as rdma_cm makes it: no LIDs, hop limit 64, PacketLifeTime 18 (CMA_IBOE_PACKET_LIFETIME). */
    static IbCmPath rocePath(final Gid sgid, final Gid dgid)
    {
        return new IbCmPath(sgid, dgid, 0, 0, 0, 3, 0, 64, 0, 3, 18, 0xffff);
    }

    static ConnectParameters connectParameters(final int localQpn, final byte[] privateData)
    {
        return ConnectParameters.rdmaCmDefaults(SERVICE_ID, IbCmPeerAddress.cmAt(PASSIVE_GID, 0),
            rocePath(ACTIVE_GID, PASSIVE_GID), localQpn, 4, 4, privateData);
    }

    static AcceptParameters acceptParameters(final byte[] privateData)
    {
        return new AcceptParameters(PASSIVE_QPN, 4, 4, 0, true, 7, false, privateData);
    }

    /** A passive listener whose consumer accepts every REQ. */
    IbCmConnection listenAndAccept()
    {
        final IbCmConnection listener = passive.connection();
        listener.listen(SERVICE_ID);
        passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(acceptParameters(null), QpTransitions.NONE);
            }
        };
        return listener;
    }

    /** listenAndAccept, connect, settle: returns the active connection. */
    IbCmConnection establish()
    {
        listenAndAccept();
        final IbCmConnection connection = active.connection();
        connection.connect(connectParameters(ACTIVE_QPN, null), QpTransitions.NONE);
        settle();
        return connection;
    }
}

package dev.rdmacm.cm;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;

/**
 * Which state may follow which, for one state machine (an id's {@link CmIdState}, or a phase's): an
 * {@link EnumSet} per state, fixed when built. Every machine's one transition method asks it before it
 * moves, so a change that the machine's diagram does not draw is a bug found where it happens rather than
 * a state that later calls misread. A state that does not change is no transition and is not asked about.
 *
 * @param <S> the machine's states.
 */
final class TransitionTable<S extends Enum<S>>
{
    private final String machine;
    private final Map<S, EnumSet<S>> next;

    private TransitionTable(final String machine, final Map<S, EnumSet<S>> next)
    {
        this.machine = machine;
        this.next = next;
    }

    static <S extends Enum<S>> Builder<S> of(final String machine, final Class<S> states)
    {
        return new Builder<>(machine, states);
    }

    boolean isLegal(final S from, final S to)
    {
        return next.get(from).contains(to);
    }

    /** The states that may follow {@code from}; a copy. */
    EnumSet<S> successors(final S from)
    {
        return EnumSet.copyOf(next.get(from));
    }

    /**
     * Throws {@link IllegalStateException} naming the machine, both states and {@code subject} when
     * {@code to} may not follow {@code from}.
     */
    void require(final Object subject, final S from, final S to)
    {
        if (!isLegal(from, to))
        {
            throw new IllegalStateException(machine + " " + subject + ": " + from + " -> " + to + " is not a legal transition " +
                "(from " + from + " only " + next.get(from) + ")");
        }
    }

    static final class Builder<S extends Enum<S>>
    {
        private final String machine;
        private final Class<S> states;
        private final Map<S, EnumSet<S>> next;

        private Builder(final String machine, final Class<S> states)
        {
            this.machine = machine;
            this.states = states;
            this.next = new EnumMap<>(states);
            for (final S state : states.getEnumConstants())
            {
                next.put(state, EnumSet.noneOf(states));
            }
        }

        /** {@code from} may move to each of {@code to}. */
        @SafeVarargs
        final Builder<S> allow(final S from, final S... to)
        {
            for (final S state : to)
            {
                next.get(from).add(state);
            }
            return this;
        }

        /** Each of {@code from} may move to {@code to}. */
        Builder<S> allowFrom(final EnumSet<S> from, final S to)
        {
            from.forEach(state -> next.get(state).add(to));
            return this;
        }

        TransitionTable<S> build()
        {
            final Map<S, EnumSet<S>> copy = new EnumMap<>(states);
            next.forEach((state, successors) -> copy.put(state, EnumSet.copyOf(successors)));
            return new TransitionTable<>(machine, copy);
        }
    }
}

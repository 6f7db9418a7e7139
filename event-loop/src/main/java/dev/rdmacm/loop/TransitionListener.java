package dev.rdmacm.loop;

/**
 * Sees every state change of a loop's state machines (Aeron's {@code Election} shape: a state enum,
 * one method per state, every change through one {@code transition} method, which calls this). Called
 * on the loop thread, at the moment of the change, with the loop's clock reading: a test records the
 * sequence and asserts it instead of inferring it from timing.
 *
 * @param <T> the machine (a pending resolution, an SA transaction, an ACM lookup).
 * @param <S> its states.
 */
@FunctionalInterface
public interface TransitionListener<T, S extends Enum<S>>
{
    void onTransition(T machine, S from, S to, long nowNanos);

    /**
     * Whether this listener sees anything: false only for {@link #none()}, so that a transition method
     * reads no clock for a listener that would drop the reading (a system call where the clock has no
     * vDSO, as in a TCG guest).
     */
    default boolean sees()
    {
        return true;
    }

    /** Sees nothing: what a loop has when no one traces it. One instance, whose {@link #sees()} is false. */
    @SuppressWarnings("unchecked")
    static <T, S extends Enum<S>> TransitionListener<T, S> none()
    {
        return (TransitionListener<T, S>)NoTransitions.NONE;
    }
}

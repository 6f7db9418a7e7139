package dev.rdmacm.loop;

/** {@link TransitionListener#none()}: sees nothing, and says so. */
@SuppressWarnings("rawtypes")
final class NoTransitions implements TransitionListener
{
    static final NoTransitions NONE = new NoTransitions();

    private NoTransitions()
    {
    }

    @Override
    public void onTransition(final Object machine, final Enum from, final Enum to, final long nowNanos)
    {
    }

    @Override
    public boolean sees()
    {
        return false;
    }
}

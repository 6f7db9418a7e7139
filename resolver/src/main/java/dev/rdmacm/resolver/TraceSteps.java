package dev.rdmacm.resolver;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A {@link ResolutionTrace}'s steps as they were when it was taken ({@link ResolutionTrace#stepsWhenRead}),
 * decoded the first time the list is read. Unmodifiable; equal to any list of the same steps.
 */
final class TraceSteps extends AbstractList<ResolutionStep> implements RandomAccess
{
    private final byte[] log;
    private final Object[] values;
    /** Decoding twice gives the same list, so threads that read at once may each decode. */
    private volatile List<ResolutionStep> decoded;

    TraceSteps(final byte[] log, final Object[] values)
    {
        this.log = log;
        this.values = values;
    }

    private List<ResolutionStep> decoded()
    {
        List<ResolutionStep> steps = decoded;
        if (steps == null)
        {
            steps = ResolutionTrace.decode(log, values);
            decoded = steps;
        }
        return steps;
    }

    @Override
    public ResolutionStep get(final int index)
    {
        return decoded().get(index);
    }

    @Override
    public int size()
    {
        return decoded().size();
    }
}

package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.RdmaCm;

import java.util.Map;

/**
 * {@link OurCm#resolve} of one case of {@link UidRangeAgainstKernelCmInGuest} in a JVM of its own, which
 * that test starts as a user other than root: prints each field as {@code FIELD key=value} on stdout,
 * as the oracle prints, and exits 0 once the case ran (its answer may be an error event or errno).
 */
public final class OurCmAsMain
{
    /** What starts each line of the answer: lines without it are not ours (the JVM's own warnings). */
    static final String FIELD = "field ";

    private OurCmAsMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final CmCase which = UidRangeAgainstKernelCmInGuest.CASES.stream().filter(c -> c.name().equals(args[0])).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no case " + args[0]));
        try (RdmaCm cm = RdmaCm.open())
        {
            for (final Map.Entry<String, String> field : OurCm.resolve(cm, which).entrySet())
            {
                System.out.println(FIELD + field.getKey() + "=" + field.getValue());
            }
        }
    }
}

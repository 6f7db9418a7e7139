package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * One test that ran inside a guest, as the guest's JUnit reported it, carried back to the host so
 * that the host's report shows it under its own name: {@link #dynamicTest()} passes, fails with the
 * guest's assertion and stack trace, or is aborted with the guest's reason.
 *
 * @param className   the test class in the guest
 * @param displayName the test's display name, e.g. {@code shouldListTheDevice()}
 * @param status      as JUnit's {@code TestExecutionResult}, or SKIPPED for a disabled test
 * @param elapsed     inside the guest
 * @param detail      the failure's stack trace, or the reason for an abort or skip; empty on success
 */
public record GuestTestOutcome(String className, String displayName, Status status, Duration elapsed, String detail)
{
    public enum Status
    {
        SUCCESSFUL, FAILED, ABORTED, SKIPPED
    }

    /**
     * This outcome replayed on the host, named {@code SimpleClassName.displayName in the guest}: a name
     * that stays the same from run to run, so reports can be compared.
     */
    public DynamicTest dynamicTest()
    {
        final String simpleName = className.substring(className.lastIndexOf('.') + 1);
        return DynamicTest.dynamicTest(simpleName + "." + displayName + " in the guest", () ->
        {
            switch (status)
            {
                case SUCCESSFUL ->
                {
                }
                case FAILED -> throw new AssertionError("failed in the guest after " + elapsed.toMillis() + " ms: " + className + "."
                    + displayName + "\n" + detail);
                case ABORTED, SKIPPED -> Assumptions.abort("in the guest: " + detail);
            }
        });
    }

    /** One line: every field Base64-encoded, tab-separated, so that no stack trace can break the format. */
    String toLine()
    {
        return String.join("\t", encode(status.name()), encode(className), encode(displayName),
            encode(Long.toString(elapsed.toMillis())), encode(detail));
    }

    static GuestTestOutcome fromLine(final String line)
    {
        final String[] fields = line.split("\t", -1);
        if (fields.length != 5)
        {
            throw new AssertionError("malformed guest test outcome line (" + fields.length + " fields): " + line);
        }
        return new GuestTestOutcome(decode(fields[1]), decode(fields[2]), Status.valueOf(decode(fields[0])),
            Duration.ofMillis(Long.parseLong(decode(fields[3]))), decode(fields[4]));
    }

    private static String encode(final String text)
    {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(final String field)
    {
        return new String(Base64.getDecoder().decode(field), StandardCharsets.UTF_8);
    }
}

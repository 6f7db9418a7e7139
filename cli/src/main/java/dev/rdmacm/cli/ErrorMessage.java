package dev.rdmacm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The message of an error object, each thing said once. The layers below wrap what failed in what they
 * were doing ({@code rdma_resolve_addr failed: ENETUNREACH (Network is unreachable): RTM_GETROUTE 10.9.9.9
 * failed: errno 101 ENETUNREACH (Network is unreachable)}); the error line already names the errno and the
 * call, so here the message keeps the chain of what was tried, each step once, and the errno's text at
 * the end: {@code RTM_GETROUTE 10.9.9.9: Network is unreachable}.
 */
final class ErrorMessage
{
    private static final String SEPARATOR = ": ";
    private static final String FAILED = " failed";

    private ErrorMessage()
    {
    }

    /**
     * @param name        the error's name ({@code ENETUNREACH}), restated in the message.
     * @param description the errno's text ({@code Network is unreachable}), or null for a name that is no errno.
     * @param call        the failed call the error object names, or null.
     */
    static String once(final String message, final String name, final String description, final String call)
    {
        if (message == null || message.isEmpty())
        {
            return message;
        }
        final Pattern restatement = Pattern.compile("(errno -?\\d+ )?" + Pattern.quote(name)
            + (description == null ? "" : "( \\(" + Pattern.quote(description) + "\\))?"));
        final List<String> kept = new ArrayList<>();
        boolean describedAway = false;
        for (final String piece : message.split(SEPARATOR))
        {
            String part = piece.endsWith(FAILED) ? piece.substring(0, piece.length() - FAILED.length()) : piece;
            if (restatement.matcher(part).matches())
            {
                describedAway |= description != null && part.contains(description);
                continue;
            }
            // the name again at the end of a parenthesis: "(0 retries, ETIMEDOUT)"
            part = part.replace(", " + name + ")", ")").replace(" (" + name + ")", "");
            if (!part.isEmpty() && !part.equals(call) && !kept.contains(part))
            {
                kept.add(part);
            }
        }
        if (describedAway && kept.stream().noneMatch(part -> part.contains(description)))
        {
            kept.add(description);
        }
        return kept.isEmpty() ? message : String.join(SEPARATOR, kept);
    }
}

package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.resolver.ResolutionStep;
import dev.rdmacm.libc.Errno;

import java.io.PrintWriter;
import java.util.List;

/**
 * The JSON trees of the CLI: how a tree becomes one compact line, and the shapes all commands share.
 * The trees are {@link JsonObject}s, written without reflection (Jackson's {@code ObjectMapper} was a
 * tenth of a cold start). {@link CommandOutput} decides where a tree goes (and renders an error tree
 * as the one text error line without {@code --json}).
 * <ul>
 * <li>an error is {@code {"error": NAME, "code": N, "message": TEXT}}, NAME the errno (or EAI) name and
 * N its number; a failed synchronous call adds {@code "call"} (e.g. {@code "rdma_resolve_addr"}), a
 * failure event adds {@code "event"} ({@code "ADDR_ERROR"}) and {@code "status"} (the event's status,
 * -errno);</li>
 * <li>a success names its event: {@code "event": "ADDR_RESOLVED"};</li>
 * <li>a trace is {@code "steps": [{"step", "start_us", "took_us", "detail"}...]} and
 * {@code "transitions": [{"at_us", "from", "to", "reason"}...]}, on one clock ({@link Trace}).</li>
 * </ul>
 */
final class JsonOutput
{
    private JsonOutput()
    {
    }

    /** {@code tree} as one line of JSON. */
    static String write(final JsonObject tree)
    {
        return tree.toJson();
    }

    /** {@code tree} as one line on {@code out}, flushed. */
    static void print(final PrintWriter out, final JsonObject tree)
    {
        out.println(write(tree));
        out.flush();
    }

    /** {@code {"error": NAME, "code": N, "message": TEXT}}, TEXT saying each thing once ({@link ErrorMessage}). */
    static JsonObject error(final String name, final int code, final String message)
    {
        final int errno = errnoNumber(name);
        return new JsonObject().put("error", name).put("code", code)
            .put("message", ErrorMessage.once(message, name, errno > 0 ? Errno.description(errno) : null, null));
    }

    /** The error of an errno without a call or event (a setup step such as opening the fabric). */
    static JsonObject errno(final int errno, final String message)
    {
        return error(Errno.name(errno), errno, message);
    }

    /** A synchronous call that returned {@code errno}: the error plus {@code "call": CALL}. */
    static JsonObject callError(final String call, final int errno, final String message)
    {
        return errno(errno, ErrorMessage.once(message, Errno.name(errno), Errno.description(errno), call)).put("call", call);
    }

    /** A failure event: the error of its -status plus {@code "event": TYPE, "status": STATUS}. */
    static JsonObject eventError(final CmEvent event, final String message)
    {
        return errno(-event.status(), message).put("event", event.type().name()).put("status", event.status());
    }

    /** The number of an errno name ({@code ENODATA} is 61); -1 for a name Linux does not define. */
    static int errnoNumber(final String name)
    {
        for (int errno = 1; errno <= Errno.MAX; errno++)
        {
            if (Errno.name(errno).equals(name))
            {
                return errno;
            }
        }
        return -1;
    }

    /** The steps of a trace: {@code [{"step", "start_us", "took_us", "detail"}...]}. */
    static JsonArray steps(final List<ResolutionStep> steps)
    {
        final JsonArray list = new JsonArray();
        for (final ResolutionStep step : steps)
        {
            list.addObject().put("step", step.name()).put("start_us", step.startNanos() / 1000)
                .put("took_us", step.tookNanos() / 1000).put("detail", step.detail());
        }
        return list;
    }

    /**
     * The names of a flag set as {@code RaiFlags.describe} and {@code IbvPathData.flagNames} write them,
     * {@code A|B|0x40}, as a list; none for an empty text or {@code 0}.
     */
    static JsonArray names(final String joined)
    {
        final JsonArray list = new JsonArray();
        if (!joined.isEmpty() && !joined.equals("0"))
        {
            for (final String name : joined.split("\\|"))
            {
                list.add(name);
            }
        }
        return list;
    }
}

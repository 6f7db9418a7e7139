package dev.rdmacm.cli;

import dev.rdmacm.acm.AcmCounters;
import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.protocol.acm.AcmCounter;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code rdmacm acm-server --json}: a service prints JSON lines, as {@code ip -j monitor} does, one object
 * a line: {@code {"event": "started", ...}} once it serves (its files, TCP port and endpoints), and
 * {@code {"event": "stopped", "counters": ..., "endpoints": [...]}} at SIGTERM or SIGINT, with the
 * PERF_QUERY counters (docs/json.md, acm-server).
 */
final class AcmServerJson
{
    private AcmServerJson()
    {
    }

    static JsonObject started(final AcmServer server)
    {
        final JsonObject tree = new JsonObject().put("event", "started")
            .put("unix_socket", server.files().unixSocket().toString())
            .put("tcp_port", server.tcpPort() < 0 ? null : Integer.valueOf(server.tcpPort()));
        final JsonArray endpoints = tree.putArray("endpoints");
        for (final AcmEndpoint endpoint : server.service().endpoints())
        {
            endpoint(endpoints.addObject(), endpoint);
        }
        return tree;
    }

    static JsonObject stopped(final AcmServer server)
    {
        final JsonObject tree = new JsonObject().put("event", "stopped")
            .put("requests", server.service().requests());
        counters(tree.putObject("counters"), server.service().counters());
        final JsonArray endpoints = tree.putArray("endpoints");
        for (final AcmEndpoint endpoint : server.service().endpoints())
        {
            counters(endpoint(endpoints.addObject(), endpoint).putObject("counters"), endpoint.counters());
        }
        return tree;
    }

    /** The object as one line on stdout, flushed: the shutdown hook prints the last one. */
    static void print(final JsonObject tree)
    {
        final PrintStream out = System.out;
        out.println(tree.toJson());
        out.flush();
    }

    private static JsonObject endpoint(final JsonObject node, final AcmEndpoint endpoint)
    {
        return node.put("device", endpoint.deviceName()).put("port", endpoint.portNum())
            .put("pkey", String.format("0x%04x", endpoint.pkey())).put("gid", endpoint.gid().toString()).put("lid", endpoint.lid());
    }

    /** The seven PERF_QUERY counters under their names in snake case, and the overflows beside them. */
    private static void counters(final JsonObject node, final AcmCounters counters)
    {
        for (final AcmCounter counter : AcmCounter.values())
        {
            node.put(counter.name().toLowerCase(Locale.ROOT), counters.get(counter));
        }
        node.put("overflows", counters.overflows());
    }
}

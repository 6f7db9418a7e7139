package dev.rdmacm.cli;

import dev.rdmacm.cli.demo.DemoFabric;
import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@code rdmacm fabric start} left running, as {@code fabric.properties} in its state directory
 * records it: ibsim's and OpenSM's PIDs with the time each started (a PID the kernel has since given
 * to another process is not ours: its start time differs), ibsim's UDP port, the node {@code --fabric}
 * attaches as, and the HCAs of the hosts file. Processes are looked at and stopped by these PIDs only.
 */
record FabricState(Path dir, long ibsimPid, long ibsimStartMillis, long openSmPid, long openSmStartMillis, int port,
    String node, List<String> hosts)
{
    static final String FILE = "fabric.properties";
    private static final String HOST = "127.0.0.1";

    static Path file(final Path dir)
    {
        return dir.resolve(FILE);
    }

    /** The state recorded in {@code dir}, or null when there is none. */
    static FabricState read(final Path dir) throws IOException
    {
        final Path file = file(dir);
        if (!Files.exists(file))
        {
            return null;
        }
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(in);
        }
        try
        {
            final List<String> hosts = new ArrayList<>();
            for (int i = 0; properties.containsKey("host." + i); i++)
            {
                hosts.add(properties.getProperty("host." + i));
            }
            return new FabricState(dir, number(properties, "ibsim_pid"), number(properties, "ibsim_start_ms"),
                number(properties, "opensm_pid"), number(properties, "opensm_start_ms"),
                (int)number(properties, "ibsim_udp_port"), properties.getProperty("node", "Hca2"), List.copyOf(hosts));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IOException(file + ": " + ex.getMessage() + ", so it is no state rdmacm fabric start wrote; remove it");
        }
    }

    private static long number(final Properties properties, final String key)
    {
        final String value = properties.getProperty(key);
        if (value == null)
        {
            throw new IllegalArgumentException("no " + key);
        }
        return Long.parseLong(value.strip());
    }

    void write() throws IOException
    {
        final Properties properties = new Properties();
        properties.setProperty("ibsim_pid", Long.toString(ibsimPid));
        properties.setProperty("ibsim_start_ms", Long.toString(ibsimStartMillis));
        properties.setProperty("opensm_pid", Long.toString(openSmPid));
        properties.setProperty("opensm_start_ms", Long.toString(openSmStartMillis));
        properties.setProperty("ibsim_udp_port", Integer.toString(port));
        properties.setProperty("node", node);
        for (int i = 0; i < hosts.size(); i++)
        {
            properties.setProperty("host." + i, hosts.get(i));
        }
        try (Writer out = Files.newBufferedWriter(file(dir), StandardCharsets.UTF_8))
        {
            properties.store(out, "rdmacm fabric start: the processes it started; rdmacm fabric stop stops them by PID");
        }
    }

    boolean ibsimAlive()
    {
        return alive(ibsimPid, ibsimStartMillis);
    }

    boolean openSmAlive()
    {
        return alive(openSmPid, openSmStartMillis);
    }

    /** The PID runs, and it is the process that started then (not another one given the PID since). */
    private static boolean alive(final long pid, final long startMillis)
    {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
            .filter(handle -> handle.info().startInstant().map(Instant::toEpochMilli).orElse(-1L) == startMillis)
            .isPresent();
    }

    /** {@code --fabric}'s value. */
    String fabricOption()
    {
        return "ibsim:" + HOST + ":" + port + ":" + node;
    }

    /** {@code --hosts}'s value. */
    Path hostsFile()
    {
        return dir.resolve(DemoFabric.HOSTS_FILE);
    }

    /** The dead of the two, as {@code ibsim pid N and OpenSM pid M}; empty when both run. */
    String dead()
    {
        final List<String> dead = new ArrayList<>();
        if (!ibsimAlive())
        {
            dead.add("ibsim pid " + ibsimPid);
        }
        if (!openSmAlive())
        {
            dead.add("OpenSM pid " + openSmPid);
        }
        return String.join(" and ", dead);
    }

    /**
     * Stops those of its two processes that still run, OpenSM first, each by its PID: SIGTERM, then
     * SIGKILL when it has not exited within two seconds. Returns the PIDs it signalled.
     */
    List<Long> stop() throws InterruptedException
    {
        final List<Long> stopped = new ArrayList<>();
        if (openSmAlive())
        {
            stop(openSmPid);
            stopped.add(openSmPid);
        }
        if (ibsimAlive())
        {
            stop(ibsimPid);
            stopped.add(ibsimPid);
        }
        return stopped;
    }

    private static void stop(final long pid) throws InterruptedException
    {
        final ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
        if (handle == null)
        {
            return;
        }
        handle.destroy();
        try
        {
            handle.onExit().get(2, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            handle.destroyForcibly();
            try
            {
                handle.onExit().get(5, TimeUnit.SECONDS);
            }
            catch (final TimeoutException | ExecutionException ignored)
            {
                // SIGKILL cannot be refused; a process stuck in the kernel is reported alive by status
            }
        }
        catch (final ExecutionException ignored)
        {
            // onExit never fails
        }
    }

    /** The {@code fabric} object of docs/json.md. */
    JsonObject json()
    {
        final JsonObject json = new JsonObject().put("state_dir", dir.toString())
            .put("ibsim_pid", ibsimPid).put("ibsim_alive", ibsimAlive())
            .put("opensm_pid", openSmPid).put("opensm_alive", openSmAlive())
            .put("ibsim_udp_port", port).put("fabric_option", fabricOption()).put("hosts_file", hostsFile().toString());
        final JsonArray array = json.putArray("hosts");
        for (final String host : hosts)
        {
            final String[] words = host.split(" ");
            array.addObject().put("node", words[0]).put("lid", Integer.parseInt(words[1])).put("gid", words[2])
                .put("address", words[3]);
        }
        return json;
    }

    /** The text {@code start} and {@code status} print: the processes, the hosts, and the options to paste. */
    String text()
    {
        final StringBuilder text = new StringBuilder();
        text.append("ibsim (pid ").append(ibsimPid).append(") on UDP port ").append(port).append(": ")
            .append(ibsimAlive() ? "running" : "not running").append('\n');
        text.append("OpenSM (pid ").append(openSmPid).append(") as Hca1: ").append(openSmAlive() ? "running" : "not running")
            .append('\n');
        text.append("state in ").append(dir).append('\n');
        for (final String host : hosts)
        {
            final String[] words = host.split(" ");
            text.append(String.format("%-5s lid %-2s %-9s %s%n", words[0], words[1], words[3], words[2]));
        }
        text.append("--fabric ").append(fabricOption()).append(" --hosts ").append(hostsFile()).append('\n');
        return text.toString();
    }
}

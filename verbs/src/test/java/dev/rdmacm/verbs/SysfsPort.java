package dev.rdmacm.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The kernel's own files for one port, {@code /sys/class/infiniband/DEV/ports/N/...}, read raw: the
 * oracle for the {@code *InGuest} tests, deliberately not through {@code SysfsDevices}, which is
 * code under test too.
 */
public record SysfsPort(String device, int port)
{
    private static final Path CLASS = Path.of("/sys/class/infiniband");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    private static final Map<SysfsPort, List<Gid>> GID_TABLES = new ConcurrentHashMap<>();

    /** A valid GID table entry as sysfs shows it: {@code gids/N}, {@code gid_attrs/types/N}, {@code gid_attrs/ndevs/N}. */
    public record Gid(int index, String gid, String type, String ndev)
    {
    }

    /** The device-level file {@code name}, e.g. {@code node_type}, stripped. */
    public String deviceFile(final String name)
    {
        return read(CLASS.resolve(device).resolve(name)).orElseThrow(() -> new AssertionError("no " + CLASS.resolve(device)
            .resolve(name)));
    }

    /** The port file {@code name}, e.g. {@code state} or {@code gids/0}, stripped. */
    public String file(final String name)
    {
        return read(directory().resolve(name)).orElseThrow(() -> new AssertionError("no " + directory().resolve(name)));
    }

    /**
     * Every non-zero GID with its type and netdev, by index. Read once per port: the table is
     * 1024 files that cost seconds under TCG, and the guest's addresses do not change during a run.
     */
    public List<Gid> gids()
    {
        return GID_TABLES.computeIfAbsent(this, SysfsPort::readGids);
    }

    /** The table as it is now, for a test that changes the guest's addresses; the cached copy is refreshed. */
    public List<Gid> freshGids()
    {
        final List<Gid> gids = readGids();
        GID_TABLES.put(this, gids);
        return gids;
    }

    private List<Gid> readGids()
    {
        final int length = count("gids");
        final List<Gid> gids = new ArrayList<>();
        for (int i = 0; i < length; i++)
        {
            final String gid = file("gids/" + i);
            if (!gid.equals(ZERO_GID))
            {
                // the kernel answers EINVAL for the type and netdev of an empty entry, so only valid ones are read
                gids.add(new Gid(i, gid, file("gid_attrs/types/" + i), read(directory().resolve("gid_attrs/ndevs/" + i)).orElse("")));
            }
        }
        return List.copyOf(gids);
    }

    /** The index of the first empty GID entry. */
    public int firstEmptyGidIndex()
    {
        final int length = count("gids");
        for (int i = 0; i < length; i++)
        {
            if (file("gids/" + i).equals(ZERO_GID))
            {
                return i;
            }
        }
        throw new AssertionError("the GID table of " + this + " has no empty entry");
    }

    /** The index of the GID {@code gid} (sysfs text) of type {@code type}. */
    public int gidIndex(final String gid, final String type)
    {
        return gids().stream().filter(g -> g.gid().equals(gid) && g.type().equals(type)).mapToInt(Gid::index).findFirst()
            .orElseThrow(() -> new AssertionError("no " + type + " GID " + gid + " in " + gids()));
    }

    /** How many ports the device has: the entries of its {@code ports/}. */
    public int portCount()
    {
        try (Stream<Path> entries = Files.list(CLASS.resolve(device).resolve("ports")))
        {
            return (int)entries.count();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list the ports of " + device + ": " + ex, ex);
        }
    }

    /** The entries of {@code pkeys/}. */
    public List<String> pkeys()
    {
        final int length = count("pkeys");
        final List<String> pkeys = new ArrayList<>();
        for (int i = 0; i < length; i++)
        {
            pkeys.add(file("pkeys/" + i));
        }
        return pkeys;
    }

    private int count(final String table)
    {
        try (Stream<Path> entries = Files.list(directory().resolve(table)))
        {
            return (int)entries.count();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list " + directory().resolve(table) + ": " + ex, ex);
        }
    }

    private Path directory()
    {
        return CLASS.resolve(device).resolve("ports").resolve(Integer.toString(port));
    }

    private static Optional<String> read(final Path file)
    {
        try
        {
            return Optional.of(Files.readString(file).strip());
        }
        catch (final IOException ex)
        {
            return Optional.empty();
        }
    }
}

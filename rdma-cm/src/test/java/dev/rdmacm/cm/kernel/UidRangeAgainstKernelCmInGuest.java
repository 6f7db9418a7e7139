package dev.rdmacm.cm.kernel;

import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.testing.guest.GuestJavaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@code rdma_resolve_addr} run by a user other than root, under an {@code ip rule uidrange} that sends
 * that user's route lookups to a table of their own, ours against the real kernel CM through the real
 * librdmacm ({@link KernelCmOracle}), both run as that user. The kernel CM routes as uid 0
 * ({@code addr4_resolve}'s flow has no uid), so the rule never applies to it; our route lookups say
 * {@code RTA_UID} 0 for the same reason, and must give the kernel's answer, not the rule's.
 * <p>
 * The rule sends uid {@value #UID}'s lookups for {@link KernelCmGuest#PEER_IPV4} out of {@code k2}, the
 * netdev without an RDMA device; uid 0's go out of {@code k0} (rxe0), as the main table says. The test
 * checks that {@code ip route get} sees that split before it compares the two CMs. Our CM runs in a JVM
 * of its own started as that user ({@link OurCmAsMain}). The user cannot read root's home (Maven's
 * repository) nor the guest's share, so the oracle and the class path's jars are copied to a directory
 * of its own first, each at its own path below it, so that the user's JVM can take the guest JVM's AOT cache.
 */
@Timeout(300)
public class UidRangeAgainstKernelCmInGuest
{
    /** {@code nobody}: a user with no capability, whose lookups the rule below redirects. */
    static final int UID = 65534;
    private static final int TABLE = 2929;
    private static final int PREFERENCE = 929;
    private static final String ELSEWHERE = "k2";
    private static final Duration LIMIT = Duration.ofMinutes(2);

    static final List<CmCase> CASES = List.of(new CmCase("uidrange-not-for-the-cm", PEER_IPV4, null, 2000));

    /**
     * Each device file's mode before the test opened it to {@link #UID}; put back after. Read and set through the file
     * system, not with stat and chmod: the kernel guest has some 40 such files, and a process costs a third of a second
     * under TCG.
     */
    private static final Map<Path, Set<PosixFilePermission>> MODES = new LinkedHashMap<>();
    private static Path copies;
    private static Path oracle;
    private static String classPath;

    @BeforeAll
    static void sendTheUsersLookupsElsewhere() throws IOException
    {
        final String guestShare = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(guestShare != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        Peers.requireCommand("setpriv", "util-linux");
        copies = Files.createTempDirectory("uidrange");
        Files.setPosixFilePermissions(copies, PosixFilePermissions.fromString("rwxr-xr-x"));
        oracle = Files.copy(Path.of(guestShare, "cm_oracle"), copies.resolve("cm_oracle"));
        Files.setPosixFilePermissions(oracle, PosixFilePermissions.fromString("rwxr-xr-x"));
        classPath = readableClassPath(System.getProperty("java.class.path"));
        // the rdma_cm, uverbs and umad devices, for librdmacm's and our CM as that user
        try (Stream<Path> devices = Files.list(Path.of("/dev/infiniband")))
        {
            for (final Path device : devices.sorted().toList())
            {
                MODES.put(device, Files.getPosixFilePermissions(device));
                Files.setPosixFilePermissions(device, PosixFilePermissions.fromString("rw-rw-rw-"));
            }
        }
        run("ip", "route", "add", PEER_IPV4 + "/32", "dev", ELSEWHERE, "table", String.valueOf(TABLE));
        run("ip", "rule", "add", "uidrange", UID + "-" + UID, "lookup", String.valueOf(TABLE), "pref", String.valueOf(PREFERENCE));
    }

    @AfterAll
    static void putItBack()
    {
        HostCommand.run(LIMIT, "ip", "rule", "del", "pref", String.valueOf(PREFERENCE));
        HostCommand.run(LIMIT, "ip", "route", "flush", "table", String.valueOf(TABLE));
        MODES.forEach((device, mode) ->
        {
            try
            {
                Files.setPosixFilePermissions(device, mode);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot put back the mode of " + device, ex);
            }
        });
        if (copies != null)
        {
            HostCommand.run(LIMIT, "rm", "-rf", copies.toString());
        }
    }

    /**
     * {@code classPath} with each jar copied into {@link #copies}, readable by the user; directories as they are. A jar keeps
     * its absolute path under {@link #copies}, and its size and time: the JVM then takes the guest JVM's AOT cache for these
     * copies (it matches a class path moved under another common prefix), and the user's JVM does not load and link anew under
     * TCG what the cache holds (this class took 32 s at 13:16 on 6 December, with the cache left out).
     */
    private static String readableClassPath(final String classPath) throws IOException
    {
        final List<String> entries = new ArrayList<>();
        for (final String entry : classPath.split(":"))
        {
            final Path path = Path.of(entry).toAbsolutePath();
            if (Files.isRegularFile(path))
            {
                final Path copy = copies.resolve(path.toString().substring(1));
                Files.createDirectories(copy.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
                Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
                entries.add(copy.toString());
            }
            else
            {
                entries.add(entry);
            }
        }
        return String.join(":", entries);
    }

    @Test
    void shouldResolveAsTheKernelCmForAUserWhoseRouteLookupsARuleSendsElsewhere() throws IOException
    {
        assertEquals(List.of("k0", ELSEWHERE), List.of(outputDevice(0), outputDevice(UID)),
            "ip route get " + PEER_IPV4 + " as uid 0 and as uid " + UID + ": the rule must send only the user's lookups elsewhere");
        final CmCase which = CASES.getFirst();

        final Map<String, String> theirs = kernelAsTheUser(which);
        final Map<String, String> ours = oursAsTheUser(which);

        assertEquals("rxe0", theirs.get("device"), "the kernel CM resolves over k0's rxe0, as uid 0 routes: " + theirs);

        final String[] range = ProcFile.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
        final int low = Integer.parseInt(range[0]);
        final int high = Integer.parseInt(range[1]);
        assertEquals(ResolutionAgainstKernelCmInGuest.byRule(which, theirs, low, high),
            ResolutionAgainstKernelCmInGuest.byRule(which, ours, low, high), "kernel said " + theirs);
    }

    /** The output device of {@code ip route get} for {@link KernelCmGuest#PEER_IPV4} as {@code uid}. */
    private static String outputDevice(final int uid)
    {
        final String route = run("ip", "route", "get", PEER_IPV4, "uid", String.valueOf(uid));
        final String[] words = route.split("\\s+");
        for (int i = 0; i + 1 < words.length; i++)
        {
            if (words[i].equals("dev"))
            {
                return words[i + 1];
            }
        }
        throw new AssertionError("no dev in: " + route);
    }

    /** The real librdmacm's answer, the oracle run as the user. */
    private static Map<String, String> kernelAsTheUser(final CmCase which) throws IOException
    {
        final Path input = Files.write(copies.resolve(which.name() + ".case"), List.of(which.oracleLine()));
        Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("rw-r--r--"));
        final String output = HostCommand.run(LIMIT, "sh", "-c", asTheUser() + " '" + oracle + "' < '" + input + "'")
            .orFail("the kernel-CM oracle as uid " + UID).output();
        final Map<String, String> answer = KernelCmOracle.parse(output).get(which.name());
        assertNotNull(answer, "the oracle printed nothing for " + which + ":\n" + output);
        final Map<String, String> fields = new LinkedHashMap<>(answer);
        fields.remove("end");
        return fields;
    }

    /**
     * Our CM's answer, {@link OurCmAsMain} in a JVM run as the user, with this one's options and AOT cache (for the copies,
     * {@link #readableClassPath}), but for the guest's own properties.
     */
    private static Map<String, String> oursAsTheUser(final CmCase which)
    {
        final List<String> command = new ArrayList<>(List.of(asTheUser().split(" ")));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(GuestJavaOptions.ofThisGuest()
            .orElse(List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"))
            .stream().filter(option -> !option.startsWith("-Drdmacm.guest")).toList());
        command.addAll(List.of("-cp", classPath, OurCmAsMain.class.getName(), which.name()));
        final String output = HostCommand.run(LIMIT, copies, command).orFail("our CM as uid " + UID).output();
        final Map<String, String> fields = new LinkedHashMap<>();
        output.lines().filter(line -> line.startsWith(OurCmAsMain.FIELD)).map(line -> line.substring(OurCmAsMain.FIELD.length()))
            .forEach(line -> fields.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        assertFalse(fields.isEmpty(), "our CM printed no field:\n" + output);
        return fields;
    }

    private static String asTheUser()
    {
        return "setpriv --reuid " + UID + " --regid " + UID + " --clear-groups";
    }

    private static String run(final String... command)
    {
        return HostCommand.run(LIMIT, command).orFail(command[0]).output();
    }
}

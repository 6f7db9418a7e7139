package dev.rdmacm.cm.kernel;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * rdma-core HEAD's {@code rdma_resolve_addrinfo}, {@code rdma_query_addrinfo} and
 * {@code rdma_write_cm_event}: ours against the real librdmacm 65 ({@link AddrinfoOracle}) case by case
 * in the same guest, every return value, errno, event, status, {@code param.arg} and every field of
 * every {@code rdma_addrinfo} entry, as text.
 * <p>
 * The guest's 6.1 kernel predates UCMA's RESOLVE_IB_SERVICE and WRITE_CM_EVENT commands, so there
 * librdmacm 65 fails every call that reaches the kernel: a USER event written is EINVAL (the kernel's
 * answer to an unknown command), and a DNS resolution that succeeded fails when it posts its event
 * through the kernel, with errno -1 ({@code ERR(-1)} over the write's EINVAL). The oracle prints the
 * first as {@code kernel write_cm_event_errno=22}. For exactly those steps {@link #onANewerKernel}
 * replaces the refusal by what the same librdmacm code does when the write succeeds, built from what
 * the oracle itself printed: the resolve returns 0, the next query hands over the list the oracle's
 * {@code rdma_getaddrinfo} of the same inputs gave, and the next poll of the channel finds
 * ADDRINFO_RESOLVED (status 0), or USER with the status and arg written. Everything librdmacm decides
 * before the kernel (EINVAL for other events, ENOTSUP, EAI codes, -1, ENOENT, EBUSY) is compared as
 * the oracle printed it.
 * <p>
 * For the guest run the class adds {@link AddrinfoCase#HOSTS_NAME} to {@code /etc/hosts} and points
 * {@code /etc/resolv.conf} at 127.0.0.1, where the busy case plays the DNS server (both are the
 * guest's overlay copies); it puts both back afterwards.
 */
public class AddrinfoAgainstLibrdmacmInGuest
{
    private static final Path HOSTS = Path.of("/etc/hosts");
    private static final Path RESOLV_CONF = Path.of("/etc/resolv.conf");
    private static final List<AddrinfoCase> CASES = AddrinfoCase.matrix();
    /** In the guest's share: both sides' fields and times, for the build's diagnosis. */
    public static final String REPORT = "addrinfo-report.txt";

    private static String hostsBefore;
    private static String resolvConfBefore;
    private static Map<String, Map<String, String>> theirs;
    private static Map<String, Map<String, String>> ours;

    @BeforeAll
    static void askBoth() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        Peers.require(AddrinfoOracle.available(), AddrinfoOracle.missing());
        hostsBefore = Files.readString(HOSTS);
        resolvConfBefore = Files.readString(RESOLV_CONF);
        Files.writeString(HOSTS, hostsBefore + KernelCmGuest.PEER_IPV4 + " " + AddrinfoCase.HOSTS_NAME + "\n");
        Files.writeString(RESOLV_CONF, "nameserver 127.0.0.1\noptions timeout:2 attempts:1\n");
        final long start = System.nanoTime();
        theirs = AddrinfoOracle.run(Path.of(share, AddrinfoOracle.BINARY), CASES);
        final long oracleDone = System.nanoTime();
        ours = OurAddrinfo.run(CASES);
        final long oursDone = System.nanoTime();
        Files.writeString(Path.of(share, REPORT), "addrinfo: librdmacm 65 " + (oracleDone - start) / 1_000_000 + " ms, ours " +
            (oursDone - oracleDone) / 1_000_000 + " ms for " + CASES.size() + " cases\n--- librdmacm 65\n" + lines(theirs) +
            "--- ours\n" + lines(ours));
    }

    private static String lines(final Map<String, Map<String, String>> byCase)
    {
        final StringBuilder text = new StringBuilder();
        byCase.forEach((name, fields) -> fields.forEach((key, value) -> text.append(name).append(' ').append(key).append('=')
            .append(value).append('\n')));
        return text.toString();
    }

    @AfterAll
    static void putBack() throws Exception
    {
        if (hostsBefore != null)
        {
            Files.writeString(HOSTS, hostsBefore);
        }
        if (resolvConfBefore != null)
        {
            Files.writeString(RESOLV_CONF, resolvConfBefore);
        }
    }

    static List<AddrinfoCase> cases()
    {
        return CASES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldAnswerAsLibrdmacm65Does(final AddrinfoCase which)
    {
        final Map<String, String> printed = theirs.get(which.name());
        assertNotNull(printed, "the oracle printed nothing for " + which + "; it printed " + theirs);
        final Map<String, String> kernel = theirs.get("kernel");
        assertNotNull(kernel, "the oracle did not probe the kernel: " + theirs);
        final int kernelErrno = Integer.parseInt(kernel.get("write_cm_event_errno"));
        final Map<String, String> expected = kernelErrno == 0 ? printed : onANewerKernel(which, printed, kernelErrno);
        assertEquals(new TreeMap<>(expected), new TreeMap<>(ours.get(which.name())), "librdmacm 65 printed " + printed);
    }

    /**
     * The oracle's answer with each refusal of this kernel replaced by what librdmacm's code does when the
     * kernel takes the command (the class comment lists the three); only steps showing the refusal's
     * exact signature change.
     */
    static Map<String, String> onANewerKernel(final AddrinfoCase which, final Map<String, String> printed, final int kernelErrno)
    {
        assertEquals(Errno.EINVAL, kernelErrno, "a kernel without WRITE_CM_EVENT answers EINVAL (ucma_write: cmd beyond its table)");
        final Map<String, String> expected = new LinkedHashMap<>(printed);
        final Deque<Map<String, String>> events = new ArrayDeque<>();
        Map<String, String> lastList = null;
        String lastInputs = null;
        Map<String, String> resolved = null;
        for (int n = 0; n < which.steps().size(); n++)
        {
            final String step = which.steps().get(n);
            final String[] parts = step.split(",", -1);
            switch (parts[0])
            {
                case "gai" ->
                {
                    lastList = "0".equals(printed.get(n + ".gai")) ? listOf(printed, n) : null;
                    lastInputs = step.substring("gai".length());
                }
                case "resolve" ->
                {
                    if (lastList != null && step.substring("resolve".length()).equals(lastInputs) && refused(printed, n, "resolve", -1))
                    {
                        succeed(expected, n, "resolve");
                        resolved = lastList;
                        events.add(Map.of("event", "RDMA_CM_EVENT_ADDRINFO_RESOLVED", "status", "0"));
                    }
                }
                case "query" ->
                {
                    if (resolved != null && refused(printed, n, "query", Errno.ENOENT))
                    {
                        succeed(expected, n, "query");
                        for (final Map.Entry<String, String> field : resolved.entrySet())
                        {
                            expected.put(n + "." + field.getKey(), field.getValue());
                        }
                        resolved = null;
                    }
                }
                case "write" ->
                {
                    if (Integer.parseInt(parts[1]) == AddrinfoCase.USER && refused(printed, n, "write", Errno.EINVAL))
                    {
                        succeed(expected, n, "write");
                        events.add(Map.of("event", "RDMA_CM_EVENT_USER", "status", parts[2],
                            "arg", "0x" + Long.toHexString(Long.parseUnsignedLong(parts[3], 16))));
                    }
                }
                case "event" ->
                {
                    if ("0".equals(printed.get(n + ".readable")) && !events.isEmpty())
                    {
                        expected.put(n + ".readable", "1");
                        for (final Map.Entry<String, String> field : events.poll().entrySet())
                        {
                            expected.put(n + "." + field.getKey(), field.getValue());
                        }
                    }
                }
                default ->
                {
                }
            }
        }
        return expected;
    }

    private static boolean refused(final Map<String, String> printed, final int n, final String call, final int errno)
    {
        return "-1".equals(printed.get(n + "." + call)) && Integer.toString(errno).equals(printed.get(n + ".errno"));
    }

    private static void succeed(final Map<String, String> expected, final int n, final String call)
    {
        expected.put(n + "." + call, "0");
        expected.put(n + ".errno", "0");
    }

    /** Step {@code n}'s entries ("0.family", ..., "entries") without the step prefix. */
    private static Map<String, String> listOf(final Map<String, String> printed, final int n)
    {
        final Map<String, String> list = new LinkedHashMap<>();
        final String prefix = n + ".";
        for (final Map.Entry<String, String> field : printed.entrySet())
        {
            final String rest = field.getKey().startsWith(prefix) ? field.getKey().substring(prefix.length()) : null;
            if (rest != null && (rest.equals("entries") || Character.isDigit(rest.charAt(0))))
            {
                list.put(rest, field.getValue());
            }
        }
        return list;
    }
}

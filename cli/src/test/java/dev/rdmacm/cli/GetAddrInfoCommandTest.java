package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GetAddrInfoCommandTest
{

    @Test
    void shouldPrintEveryFieldOfAnIpv4Entry()
    {
        final CommandRun run = run("getaddrinfo", "192.0.2.1", "7471");

        assertEquals(0, run.exit());
        assertEquals("""
            entry 0
              ai_flags          0x0
              ai_family         AF_INET (2)
              ai_qp_type        IBV_QPT_RC (2)
              ai_port_space     RDMA_PS_TCP (0x106)
              ai_src_addr       -
              ai_dst_addr       192.0.2.1:7471
              ai_src_canonname  -
              ai_dst_canonname  -
              ai_route          -
              ai_connect        -
            """, run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldPrintAPassiveIpv6EntryWithItsFlagNamesAndScope()
    {
        final CommandRun run = run("getaddrinfo", "fe80::1%1", "7471", "--passive", "--qp-type", "ud", "--flags", "0x40000000");

        assertEquals(0, run.exit());
        assertEquals("""
            entry 0
              ai_flags          0x1 (RAI_PASSIVE)
              ai_family         AF_INET6 (10)
              ai_qp_type        IBV_QPT_UD (4)
              ai_port_space     RDMA_PS_UDP (0x111)
              ai_src_addr       [fe80::1%1]:7471
              ai_dst_addr       -
              ai_src_canonname  -
              ai_dst_canonname  -
              ai_route          -
              ai_connect        -
            """, run.out());
    }

    @Test
    void shouldWriteTheCStructFieldNamesAndNumericValuesInJson()
    {
        final CommandRun run = run("getaddrinfo", "--json", "127.0.0.1", "echo", "--src", "192.0.2.9:99", "--port-space", "ib");

        assertEquals(0, run.exit());
        assertEquals("{\"entries\":[{\"ai_flags\":0,\"ai_flags_names\":[],\"ai_family\":2,\"ai_family_name\":\"AF_INET\"," +
            "\"ai_qp_type\":2,\"ai_qp_type_name\":\"IBV_QPT_RC\",\"ai_port_space\":319,\"ai_port_space_name\":\"RDMA_PS_IB\"," +
            "\"ai_src_addr\":\"192.0.2.9:99\",\"ai_dst_addr\":\"127.0.0.1:7\",\"ai_src_canonname\":null," +
            "\"ai_dst_canonname\":null,\"ai_route\":null,\"ai_connect\":null}]}\n", run.out());
    }

    @Test
    void shouldWriteAnAfIbAddressAsAnObject() throws Exception
    {
        final CommandRun run = run("getaddrinfo", "--json", "--family", "ib", "--rai-family", "--numeric-host", "fe80::2:c903:0:1", "7471");

        assertEquals(0, run.exit());
        final JsonNode dst = new ObjectMapper().readTree(run.out()).get("entries").get(0).get("ai_dst_addr");
        assertEquals("{\"gid\":\"fe80::2:c903:0:1\",\"pkey\":\"0xffff\",\"sid\":\"0x0000000001061d2f\"," +
            "\"sid_mask\":\"0xffffffffffffffff\",\"flowinfo\":0,\"scope_id\":\"0\"}", dst.toString());
        assertEquals(27, new ObjectMapper().readTree(run.out()).get("entries").get(0).get("ai_family").asInt());
    }

    @Test
    void shouldWriteAGlibcFailureAsAnEaiErrorAndExitOne()
    {
        final CommandRun run = run("getaddrinfo", "--json", "--numeric-host", "localhost", "7471");

        assertEquals(1, run.exit());
        assertEquals("{\"error\":\"EAI_NONAME\",\"code\":-2,\"message\":\"Name or service not known\",\"call\":\"rdma_getaddrinfo\"}\n", run.out());
    }

    @Test
    void shouldWriteAnErrnoFailureAsItsErrnoAndExitOne()
    {
        final CommandRun run = run("getaddrinfo", "--json");

        assertEquals(1, run.exit());
        assertEquals("{\"error\":\"EINVAL\",\"code\":22,\"message\":\"Invalid argument\",\"call\":\"rdma_getaddrinfo\"}\n", run.out());
    }

    @Test
    void shouldPrintTheErrorLineOnStandardErrorInTextMode()
    {
        final CommandRun run = run("getaddrinfo", "127.0.0.1", "7471", "--qp-type", "ud", "--port-space", "tcp");

        assertEquals(1, run.exit());
        assertEquals("", run.out());
        assertEquals("rdmacm getaddrinfo: rdma_getaddrinfo EAI_SOCKTYPE (-7): ai_socktype not supported\n", run.err());
    }

    @Test
    void shouldPrintAnErrnoFailureInTheOneTextErrorFormat()
    {
        final CommandRun run = run("getaddrinfo");

        assertEquals(1, run.exit());
        assertEquals("", run.out());
        assertEquals("rdmacm getaddrinfo: rdma_getaddrinfo EINVAL (22): Invalid argument\n", run.err());
    }

    @Test
    void shouldTakeAnAfIbDestinationWrittenAsTheTextOutputPrintsIt()
    {
        final CommandRun run = run("getaddrinfo", "--family", "ib", "--dst",
            "gid=fe80::2:c903:0:1 pkey=0xffff sid=0x0000000001061d2f sid_mask=0xffffffffffffffff flowinfo=0 scope_id=0");

        assertEquals(0, run.exit());
        assertEquals("""
            entry 0
              ai_flags          0x0
              ai_family         AF_IB (27)
              ai_qp_type        unset (0)
              ai_port_space     unset (0x0)
              ai_src_addr       -
              ai_dst_addr       gid=fe80::2:c903:0:1 pkey=0xffff sid=0x0000000001061d2f sid_mask=0xffffffffffffffff flowinfo=0 scope_id=0
              ai_src_canonname  -
              ai_dst_canonname  -
              ai_route          -
              ai_connect        -
            """, run.out());
    }

    @Test
    void shouldTakeADashAsAnAbsentNode()
    {
        final CommandRun run = run("getaddrinfo", "--json", "--passive", "--family", "inet", "-", "7471");

        assertEquals(0, run.exit());
        assertTrue(run.out().contains("\"ai_flags\":1,\"ai_flags_names\":[\"RAI_PASSIVE\"],\"ai_family\":2,") && run.out().contains("\"ai_src_addr\":\"0.0.0.0:7471\""),
            run.out());
    }

    @Test
    void shouldRefuseANodeWithServiceRecordLookup()
    {
        final CommandRun run = run("getaddrinfo", "--json", "--sa", "node", "0x1234");

        assertEquals(1, run.exit());
        assertEquals("{\"error\":\"EOPNOTSUPP\",\"code\":95,\"message\":\"Operation not supported\",\"call\":\"rdma_getaddrinfo\"}\n", run.out());
    }

    @Test
    void shouldReportNoServiceRecordWithoutAnInfinibandPort()
    {
        final CommandRun run = run("getaddrinfo", "--json", "--sa", "-", "0x1234");

        assertEquals(1, run.exit());
        assertEquals("{\"error\":\"ENOENT\",\"code\":2,\"message\":\"No such file or directory\",\"call\":\"rdma_getaddrinfo\"}\n", run.out());
    }

    @Test
    void shouldExitTwoNamingTheBadFamily()
    {
        final CommandRun run = run("getaddrinfo", "--family", "ipx", "x");

        assertEquals(2, run.exit());
        assertTrue(run.err().startsWith("rdmacm getaddrinfo: Invalid value for option '--family': 'ipx' is not one of unspec, inet, inet6, ib\n"),
            run.err());
    }

    @Test
    void shouldExitTwoNamingTheBadAddress()
    {
        final CommandRun run = run("getaddrinfo", "--src", "192.0.2.300:1", "x");

        assertEquals(2, run.exit());
        assertTrue(run.err().startsWith("rdmacm getaddrinfo: Invalid value for option '--src': address: '300' in '192.0.2.300:1' is not a number from 0 to 255\n"),
            run.err());
    }

    @Test
    void shouldExitTwoForFlagsOutOfRange()
    {
        final CommandRun run = run("getaddrinfo", "--flags", "0x100000000", "x");

        assertEquals(2, run.exit());
        assertTrue(run.err().startsWith("rdmacm getaddrinfo: Invalid value for option '--flags': '0x100000000' is not a number from 0 to 0xffffffff"),
            run.err());
    }

    @Test
    void shouldListInItsHelpTheFamiliesItsErrorAccepts()
    {
        final CommandRun refused = run("getaddrinfo", "--family", "bogus", "127.0.0.1");
        final CommandRun help = run("getaddrinfo", "--help");

        final Matcher accepted = Pattern.compile("is not one of ([a-z0-9, ]+)").matcher(refused.err());
        assertTrue(accepted.find(), refused.err());
        final String label = "--family=" + String.join("|", accepted.group(1).split(", "));
        assertTrue(help.out().contains(label), label + " in\n" + help.out());
    }
}

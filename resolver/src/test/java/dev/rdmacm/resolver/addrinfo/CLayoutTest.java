package dev.rdmacm.resolver.addrinfo;

import dev.rdmacm.testing.CProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every struct offset and constant this package writes by hand, against the installed C headers. */
class CLayoutTest
{
    private static final String PROBE = """
        #include <stdio.h>
        #include <stddef.h>
        #include <netdb.h>
        #include <netinet/in.h>
        #include <infiniband/ib.h>
        #include <rdma/rdma_cma.h>
        #define P(name, value) printf("%s=%ld\\n", name, (long) (value))
        int main(void) {
            P("addrinfo.size", sizeof(struct addrinfo));
            P("addrinfo.ai_flags", offsetof(struct addrinfo, ai_flags));
            P("addrinfo.ai_family", offsetof(struct addrinfo, ai_family));
            P("addrinfo.ai_socktype", offsetof(struct addrinfo, ai_socktype));
            P("addrinfo.ai_protocol", offsetof(struct addrinfo, ai_protocol));
            P("addrinfo.ai_addrlen", offsetof(struct addrinfo, ai_addrlen));
            P("addrinfo.ai_addr", offsetof(struct addrinfo, ai_addr));
            P("addrinfo.ai_canonname", offsetof(struct addrinfo, ai_canonname));
            P("addrinfo.ai_next", offsetof(struct addrinfo, ai_next));
            P("sockaddr_in.size", sizeof(struct sockaddr_in));
            P("sockaddr_in.sin_port", offsetof(struct sockaddr_in, sin_port));
            P("sockaddr_in.sin_addr", offsetof(struct sockaddr_in, sin_addr));
            P("sockaddr_in6.size", sizeof(struct sockaddr_in6));
            P("sockaddr_in6.sin6_port", offsetof(struct sockaddr_in6, sin6_port));
            P("sockaddr_in6.sin6_flowinfo", offsetof(struct sockaddr_in6, sin6_flowinfo));
            P("sockaddr_in6.sin6_addr", offsetof(struct sockaddr_in6, sin6_addr));
            P("sockaddr_in6.sin6_scope_id", offsetof(struct sockaddr_in6, sin6_scope_id));
            P("sockaddr_ib.size", sizeof(struct sockaddr_ib));
            P("AF_INET", AF_INET); P("AF_INET6", AF_INET6); P("AF_IB", AF_IB);
            P("AI_PASSIVE", AI_PASSIVE); P("AI_NUMERICHOST", AI_NUMERICHOST);
            P("SOCK_STREAM", SOCK_STREAM); P("SOCK_DGRAM", SOCK_DGRAM);
            P("IPPROTO_TCP", IPPROTO_TCP); P("IPPROTO_UDP", IPPROTO_UDP);
            P("RAI_PASSIVE", RAI_PASSIVE); P("RAI_NUMERICHOST", RAI_NUMERICHOST);
            P("RAI_NOROUTE", RAI_NOROUTE); P("RAI_FAMILY", RAI_FAMILY);
            P("IBV_QPT_RC", IBV_QPT_RC); P("IBV_QPT_UC", IBV_QPT_UC); P("IBV_QPT_UD", IBV_QPT_UD);
            P("IBV_QPT_XRC_SEND", IBV_QPT_XRC_SEND); P("IBV_QPT_XRC_RECV", IBV_QPT_XRC_RECV);
            P("EAI_BADFLAGS", EAI_BADFLAGS); P("EAI_NONAME", EAI_NONAME); P("EAI_FAMILY", EAI_FAMILY);
            P("EAI_SOCKTYPE", EAI_SOCKTYPE); P("EAI_SERVICE", EAI_SERVICE); P("EAI_ADDRFAMILY", EAI_ADDRFAMILY);
            P("EAI_SYSTEM", EAI_SYSTEM); P("EAI_OVERFLOW", EAI_OVERFLOW);
            return 0;
        }
        """;

    private static final Map<String, Long> C = new HashMap<>();

    @BeforeAll
    static void compileProbe()
    {
        for (final String line : CProgram.compileAndRun(PROBE, "-D_GNU_SOURCE").lines().toList())
        {
            final int equals = line.indexOf('=');
            C.put(line.substring(0, equals), Long.parseLong(line.substring(equals + 1)));
        }
    }

    private static void assertC(final String name, final long ours)
    {
        assertEquals(C.get(name), ours, name);
    }

    @Test
    void shouldLayOutStructAddrinfoAsGlibc()
    {
        assertC("addrinfo.size", LibcNetdb.ADDRINFO_SIZE);
        assertC("addrinfo.ai_flags", LibcNetdb.AI_FLAGS_OFFSET);
        assertC("addrinfo.ai_family", LibcNetdb.AI_FAMILY_OFFSET);
        assertC("addrinfo.ai_socktype", LibcNetdb.AI_SOCKTYPE_OFFSET);
        assertC("addrinfo.ai_protocol", LibcNetdb.AI_PROTOCOL_OFFSET);
        assertC("addrinfo.ai_addrlen", LibcNetdb.AI_ADDRLEN_OFFSET);
        assertC("addrinfo.ai_addr", LibcNetdb.AI_ADDR_OFFSET);
        assertC("addrinfo.ai_canonname", LibcNetdb.AI_CANONNAME_OFFSET);
        assertC("addrinfo.ai_next", LibcNetdb.AI_NEXT_OFFSET);
    }

    @Test
    void shouldLayOutTheThreeSockaddrsAsTheHeaders()
    {
        assertC("sockaddr_in.size", Ipv4Sockaddr.LENGTH);
        assertC("sockaddr_in.sin_port", Ipv4Sockaddr.PORT_OFFSET);
        assertC("sockaddr_in.sin_addr", Ipv4Sockaddr.ADDR_OFFSET);
        assertC("sockaddr_in6.size", Ipv6Sockaddr.LENGTH);
        assertC("sockaddr_in6.sin6_port", Ipv6Sockaddr.PORT_OFFSET);
        assertC("sockaddr_in6.sin6_flowinfo", Ipv6Sockaddr.FLOWINFO_OFFSET);
        assertC("sockaddr_in6.sin6_addr", Ipv6Sockaddr.ADDR_OFFSET);
        assertC("sockaddr_in6.sin6_scope_id", Ipv6Sockaddr.SCOPE_ID_OFFSET);
        assertC("sockaddr_ib.size", IbSockaddr.LENGTH);
    }

    @Test
    void shouldUseTheHeadersConstants()
    {
        assertC("AF_INET", AddressFamily.AF_INET);
        assertC("AF_INET6", AddressFamily.AF_INET6);
        assertC("AF_IB", AddressFamily.AF_IB);
        assertC("AI_PASSIVE", LibcNetdb.AI_PASSIVE);
        assertC("AI_NUMERICHOST", LibcNetdb.AI_NUMERICHOST);
        assertC("SOCK_STREAM", LibcNetdb.SOCK_STREAM);
        assertC("SOCK_DGRAM", LibcNetdb.SOCK_DGRAM);
        assertC("IPPROTO_TCP", LibcNetdb.IPPROTO_TCP);
        assertC("IPPROTO_UDP", LibcNetdb.IPPROTO_UDP);
        assertC("RAI_PASSIVE", RaiFlags.PASSIVE);
        assertC("RAI_NUMERICHOST", RaiFlags.NUMERICHOST);
        assertC("RAI_NOROUTE", RaiFlags.NOROUTE);
        assertC("RAI_FAMILY", RaiFlags.FAMILY);
        assertC("IBV_QPT_RC", QpType.RC);
        assertC("IBV_QPT_UC", QpType.UC);
        assertC("IBV_QPT_UD", QpType.UD);
        assertC("IBV_QPT_XRC_SEND", QpType.XRC_SEND);
        assertC("IBV_QPT_XRC_RECV", QpType.XRC_RECV);
        assertC("EAI_BADFLAGS", EaiCode.EAI_BADFLAGS);
        assertC("EAI_NONAME", EaiCode.EAI_NONAME);
        assertC("EAI_FAMILY", EaiCode.EAI_FAMILY);
        assertC("EAI_SOCKTYPE", EaiCode.EAI_SOCKTYPE);
        assertC("EAI_SERVICE", EaiCode.EAI_SERVICE);
        assertC("EAI_ADDRFAMILY", EaiCode.EAI_ADDRFAMILY);
        assertC("EAI_SYSTEM", EaiCode.EAI_SYSTEM);
        assertC("EAI_OVERFLOW", EaiCode.EAI_OVERFLOW);
    }
}

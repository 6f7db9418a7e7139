package dev.rdmacm.addrinfo;

import dev.rdmacm.testing.CHeaders;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

/** Every struct offset and constant this package writes by hand, against the installed C headers. */
class CLayoutTest
{
    private static final String INCLUDES = """
        #include <netdb.h>
        #include <netinet/in.h>
        #include <infiniband/ib.h>
        #include <rdma/rdma_cma.h>
        """;

    @Test
    void shouldLayOutStructAddrinfoAsGlibc()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct addrinfo)", LibcNetdb.ADDRINFO_SIZE);
        expected.put("offsetof(struct addrinfo, ai_flags)", LibcNetdb.AI_FLAGS_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_family)", LibcNetdb.AI_FAMILY_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_socktype)", LibcNetdb.AI_SOCKTYPE_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_protocol)", LibcNetdb.AI_PROTOCOL_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_addrlen)", LibcNetdb.AI_ADDRLEN_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_addr)", LibcNetdb.AI_ADDR_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_canonname)", LibcNetdb.AI_CANONNAME_OFFSET);
        expected.put("offsetof(struct addrinfo, ai_next)", LibcNetdb.AI_NEXT_OFFSET);
        CHeaders.assertValues(INCLUDES, expected, "-D_GNU_SOURCE");
    }

    @Test
    void shouldLayOutTheThreeSockaddrsAsTheHeaders()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct sockaddr_in)", Ipv4Sockaddr.LENGTH);
        expected.put("offsetof(struct sockaddr_in, sin_port)", Ipv4Sockaddr.PORT_OFFSET);
        expected.put("offsetof(struct sockaddr_in, sin_addr)", Ipv4Sockaddr.ADDR_OFFSET);
        expected.put("sizeof(struct sockaddr_in6)", Ipv6Sockaddr.LENGTH);
        expected.put("offsetof(struct sockaddr_in6, sin6_port)", Ipv6Sockaddr.PORT_OFFSET);
        expected.put("offsetof(struct sockaddr_in6, sin6_flowinfo)", Ipv6Sockaddr.FLOWINFO_OFFSET);
        expected.put("offsetof(struct sockaddr_in6, sin6_addr)", Ipv6Sockaddr.ADDR_OFFSET);
        expected.put("offsetof(struct sockaddr_in6, sin6_scope_id)", Ipv6Sockaddr.SCOPE_ID_OFFSET);
        expected.put("sizeof(struct sockaddr_ib)", IbSockaddr.LENGTH);
        CHeaders.assertValues(INCLUDES, expected, "-D_GNU_SOURCE");
    }

    @Test
    void shouldUseTheHeadersConstants()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("AF_INET", AddressFamily.AF_INET);
        expected.put("AF_INET6", AddressFamily.AF_INET6);
        expected.put("AF_IB", AddressFamily.AF_IB);
        expected.put("AI_PASSIVE", LibcNetdb.AI_PASSIVE);
        expected.put("AI_NUMERICHOST", LibcNetdb.AI_NUMERICHOST);
        expected.put("SOCK_STREAM", LibcNetdb.SOCK_STREAM);
        expected.put("SOCK_DGRAM", LibcNetdb.SOCK_DGRAM);
        expected.put("IPPROTO_TCP", LibcNetdb.IPPROTO_TCP);
        expected.put("IPPROTO_UDP", LibcNetdb.IPPROTO_UDP);
        expected.put("RAI_PASSIVE", RaiFlags.PASSIVE);
        expected.put("RAI_NUMERICHOST", RaiFlags.NUMERICHOST);
        expected.put("RAI_NOROUTE", RaiFlags.NOROUTE);
        expected.put("RAI_FAMILY", RaiFlags.FAMILY);
        expected.put("IBV_QPT_RC", QpType.RC);
        expected.put("IBV_QPT_UC", QpType.UC);
        expected.put("IBV_QPT_UD", QpType.UD);
        expected.put("IBV_QPT_XRC_SEND", QpType.XRC_SEND);
        expected.put("IBV_QPT_XRC_RECV", QpType.XRC_RECV);
        expected.put("EAI_BADFLAGS", EaiCode.EAI_BADFLAGS);
        expected.put("EAI_NONAME", EaiCode.EAI_NONAME);
        expected.put("EAI_FAMILY", EaiCode.EAI_FAMILY);
        expected.put("EAI_SOCKTYPE", EaiCode.EAI_SOCKTYPE);
        expected.put("EAI_SERVICE", EaiCode.EAI_SERVICE);
        expected.put("EAI_ADDRFAMILY", EaiCode.EAI_ADDRFAMILY);
        expected.put("EAI_SYSTEM", EaiCode.EAI_SYSTEM);
        expected.put("EAI_OVERFLOW", EaiCode.EAI_OVERFLOW);
        CHeaders.assertValues(INCLUDES, expected, "-D_GNU_SOURCE");
    }
}

package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The byte order of every kind of field, against C: the commands this module writes equal, byte for
 * byte, the structs a C program fills through the header's own member names (with {@code htons},
 * {@code htobe64} where the header says big-endian), and the responses a C program fills the way the
 * kernel does read back as the values it put in.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UcmaStructBytesTest
{
    /** glibc's socket headers first, so that linux/in6.h (included by the ucma header) defers to them. */
    private static final String INCLUDES = """
        #include <netinet/in.h>
        #include <arpa/inet.h>
        #include <infiniband/ib.h>
        #include <rdma/rdma_user_cm.h>
        """;
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void requireHeaders()
    {
        Peers.requireFile("/usr/include/rdma/rdma_user_cm.h", "linux-libc-dev");
        Peers.requireFile("/usr/include/infiniband/ib.h", "libibverbs-dev");
    }

    private static UnsafeBuffer zeroed(final int length)
    {
        return new UnsafeBuffer(new byte[length]);
    }

    private static UnsafeBuffer fromC(final String body, final String variable)
    {
        return new UnsafeBuffer(HEX.parseHex(CHeaders.bytesOf(INCLUDES, body, variable)));
    }

    @Test
    void shouldWriteCreateIdAsTheHeaderLaysItOut()
    {
        final UnsafeBuffer ours = zeroed(UcmCreateId.LENGTH);
        new UcmCreateId().wrap(ours, 0).clear().uid(0x1122334455667788L).response(0x7f00dead_beefL)
            .ps(UcmaConstants.RDMA_PS_TCP).qpType(UcmaConstants.IB_QPT_RC);

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_create_id c;
            memset(&c, 0, sizeof c);
            c.uid = 0x1122334455667788ULL;
            c.response = 0x7f00deadbeefULL;
            c.ps = RDMA_PS_TCP;
            c.qp_type = 2;
            """, "c"), CHeaders.hex(ours, 0, UcmCreateId.LENGTH));
    }

    @Test
    void shouldWriteResolveAddrWithAnIpv4SourceAndAnIpv6Destination()
    {
        final UnsafeBuffer ours = zeroed(UcmResolveAddr.LENGTH);
        final byte[] v6 = Gid.parse("2001:db8:20::2").toBytes();
        new UcmResolveAddr().wrap(ours, 0).clear().id(0x01020304).timeoutMs(2000)
            .source(new Ipv4Sockaddr(0x0a140001, 7471)).destination(new Ipv6Sockaddr(v6, 7472, 0x12345, 3));

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_resolve_addr c;
            struct sockaddr_in *src = (struct sockaddr_in *)&c.src_addr;
            struct sockaddr_in6 *dst = (struct sockaddr_in6 *)&c.dst_addr;
            memset(&c, 0, sizeof c);
            c.id = 0x01020304;
            c.timeout_ms = 2000;
            c.src_size = sizeof(struct sockaddr_in);
            c.dst_size = sizeof(struct sockaddr_in6);
            src->sin_family = AF_INET;
            src->sin_port = htons(7471);
            inet_pton(AF_INET, "10.20.0.1", &src->sin_addr);
            dst->sin6_family = AF_INET6;
            dst->sin6_port = htons(7472);
            dst->sin6_flowinfo = htonl(0x12345);
            dst->sin6_scope_id = 3;
            inet_pton(AF_INET6, "2001:db8:20::2", &dst->sin6_addr);
            """, "c"), CHeaders.hex(ours, 0, UcmResolveAddr.LENGTH));
    }

    @Test
    void shouldWriteBindWithAnAfIbAddress()
    {
        final UnsafeBuffer ours = zeroed(UcmBind.LENGTH);
        final UcmBind bind = new UcmBind().wrap(ours, 0).clear().id(7)
            .address(new IbSockaddr(PKey.of(0x8001), 0, Gid.parse("fe80::2"), 0x0000000001060000L | 7471, -1L, 0));

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_bind c;
            struct sockaddr_ib *sib = (struct sockaddr_ib *)&c.addr;
            memset(&c, 0, sizeof c);
            c.id = 7;
            c.addr_size = sizeof(struct sockaddr_ib);
            sib->sib_family = AF_IB;
            sib->sib_pkey = htons(0x8001);
            inet_pton(AF_INET6, "fe80::2", &sib->sib_addr);
            sib->sib_sid = htobe64(0x0000000001060000ULL | 7471);
            sib->sib_sid_mask = htobe64(0xffffffffffffffffULL);
            """, "c"), CHeaders.hex(ours, 0, UcmBind.LENGTH));
        assertEquals(48, bind.addrSize());
    }

    @Test
    void shouldWriteConnectWithItsParametersAndPrivateData()
    {
        final UnsafeBuffer ours = zeroed(UcmConnect.LENGTH);
        final UcmConnect connect = new UcmConnect().wrap(ours, 0).clear().id(42).eceVendorId(0x15b3).eceAttrMod(9);
        connect.connParam().qpNum(0x11).privateData("hello".getBytes(StandardCharsets.US_ASCII)).responderResources(4)
            .initiatorDepth(3).flowControl(1).retryCount(7).rnrRetryCount(6).valid(1);

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_connect c;
            memset(&c, 0, sizeof c);
            c.id = 42;
            c.ece.vendor_id = 0x15b3;
            c.ece.attr_mod = 9;
            c.conn_param.qp_num = 0x11;
            memcpy(c.conn_param.private_data, "hello", 5);
            c.conn_param.private_data_len = 5;
            c.conn_param.responder_resources = 4;
            c.conn_param.initiator_depth = 3;
            c.conn_param.flow_control = 1;
            c.conn_param.retry_count = 7;
            c.conn_param.rnr_retry_count = 6;
            c.conn_param.valid = 1;
            """, "c"), CHeaders.hex(ours, 0, UcmConnect.LENGTH));
    }

    @Test
    void shouldWriteJoinMcastWithASendOnlyIpv4Group()
    {
        final UnsafeBuffer ours = zeroed(UcmJoinMcast.LENGTH);
        new UcmJoinMcast().wrap(ours, 0).clear().response(0x7f00dead_beefL).uid(0x1122334455667788L).id(9)
            .address(new Ipv4Sockaddr(0xe0010203, 0)).joinFlags(UcmaConstants.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_join_mcast c;
            struct sockaddr_in *group = (struct sockaddr_in *)&c.addr;
            memset(&c, 0, sizeof c);
            c.response = 0x7f00deadbeefULL;
            c.uid = 0x1122334455667788ULL;
            c.id = 9;
            c.addr_size = sizeof(struct sockaddr_in);
            c.join_flags = RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER;
            group->sin_family = AF_INET;
            inet_pton(AF_INET, "224.1.2.3", &group->sin_addr);
            """, "c"), CHeaders.hex(ours, 0, UcmJoinMcast.LENGTH));
    }

    @Test
    void shouldWriteJoinIpMcastWithAnIpv6GroupInItsSockaddrIn6Room()
    {
        final UnsafeBuffer ours = zeroed(UcmJoinIpMcast.LENGTH);
        new UcmJoinIpMcast().wrap(ours, 0).clear().response(0x7f00dead_beefL).uid(42).id(0x01020304)
            .address(new Ipv6Sockaddr(Gid.parse("ff0e::1:2").toBytes(), 0, 0, 0));

        assertEquals(CHeaders.bytesOf(INCLUDES, """
            struct rdma_ucm_join_ip_mcast c;
            memset(&c, 0, sizeof c);
            c.response = 0x7f00deadbeefULL;
            c.uid = 42;
            c.id = 0x01020304;
            c.addr.sin6_family = AF_INET6;
            inet_pton(AF_INET6, "ff0e::1:2", &c.addr.sin6_addr);
            """, "c"), CHeaders.hex(ours, 0, UcmJoinIpMcast.LENGTH));
    }

    @Test
    void shouldReadTheAddressAnswerWithItsBigEndianGuidAndPkey()
    {
        final UnsafeBuffer kernel = fromC("""
            struct rdma_ucm_query_addr_resp c;
            struct sockaddr_in *src = (struct sockaddr_in *)&c.src_addr;
            memset(&c, 0, sizeof c);
            c.node_guid = htobe64(0x0002c903000a1b2cULL);
            c.port_num = 1;
            c.pkey = htons(0x8001);
            c.src_size = sizeof(struct sockaddr_in);
            src->sin_family = AF_INET;
            src->sin_port = htons(7471);
            inet_pton(AF_INET, "10.20.0.1", &src->sin_addr);
            c.ibdev_index = 3;
            """, "c");
        final QueryAddrResponse answer = new QueryAddrResponse().wrap(kernel, 0, kernel.capacity());

        assertEquals(0x0002c903000a1b2cL, answer.nodeGuid());
        assertEquals(1, answer.portNum());
        assertEquals(0x8001, answer.pkey());
        assertEquals(new Ipv4Sockaddr(0x0a140001, 7471), answer.source());
        assertNull(answer.destination());
        assertEquals(3, answer.ibdevIndex());
    }

    @Test
    void shouldReadTheGidsOfAGidAnswer()
    {
        final UnsafeBuffer kernel = fromC("""
            struct rdma_ucm_query_addr_resp c;
            struct sockaddr_ib *src = (struct sockaddr_ib *)&c.src_addr;
            struct sockaddr_ib *dst = (struct sockaddr_ib *)&c.dst_addr;
            memset(&c, 0, sizeof c);
            c.src_size = c.dst_size = sizeof(struct sockaddr_ib);
            src->sib_family = dst->sib_family = AF_IB;
            inet_pton(AF_INET6, "::ffff:10.20.0.1", &src->sib_addr);
            inet_pton(AF_INET6, "::ffff:10.20.0.2", &dst->sib_addr);
            """, "c");
        final QueryAddrResponse answer = new QueryAddrResponse().wrap(kernel, 0, kernel.capacity());

        assertEquals(Gid.parse("::ffff:10.20.0.1"), answer.sourceGid());
        assertEquals(Gid.parse("::ffff:10.20.0.2"), answer.destinationGid());
        assertEquals(Gid.parse("::ffff:10.20.0.2"), ((IbSockaddr)answer.destination()).gid());
    }

    @Test
    void shouldReadAnEventWithItsUnalignedParameterAndNegativeStatus()
    {
        final UnsafeBuffer kernel = fromC("""
            struct rdma_ucm_event_resp c;
            memset(&c, 0, sizeof c);
            c.uid = 0x8877665544332211ULL;
            c.id = 5;
            c.event = 9;
            c.status = (__u32)-110;
            c.param.conn.qp_num = 0xabcdef;
            memcpy(c.param.conn.private_data, "abc", 3);
            c.param.conn.private_data_len = 3;
            c.param.conn.responder_resources = 4;
            c.ece.vendor_id = 0x15b3;
            c.ece.attr_mod = 2;
            """, "c");
        final EventResponse event = new EventResponse().wrap(kernel, 0, kernel.capacity());

        assertEquals(0x8877665544332211L, event.uid());
        assertEquals(5, event.id());
        assertEquals(UcmaEventType.ESTABLISHED, UcmaEventType.of(event.event()));
        assertEquals(-110, event.status());
        assertEquals(0xabcdef, event.conn().qpNum());
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), event.conn().privateData());
        assertEquals(4, event.conn().responderResources());
        assertEquals(0xabcdef, event.ud().qpNum());
        assertEquals(0x15b3, event.eceVendorId());
        assertEquals(2, event.eceAttrMod());
    }

    @Test
    void shouldReadTheQpAttributesInHostOrder()
    {
        final UnsafeBuffer kernel = fromC("""
            struct ib_uverbs_qp_attr c;
            memset(&c, 0, sizeof c);
            c.qp_attr_mask = 0x1e1;
            c.qp_state = 3;
            c.path_mtu = 3;
            c.rq_psn = 0x123456;
            c.dest_qp_num = 0x11;
            inet_pton(AF_INET6, "::ffff:10.20.0.2", c.ah_attr.grh.dgid);
            c.ah_attr.grh.flow_label = 0x12345;
            c.ah_attr.grh.sgid_index = 1;
            c.ah_attr.grh.hop_limit = 64;
            c.ah_attr.dlid = 0x1234;
            c.ah_attr.is_global = 1;
            c.ah_attr.port_num = 1;
            c.pkey_index = 2;
            c.max_dest_rd_atomic = 5;
            c.min_rnr_timer = 12;
            c.timeout = 14;
            """, "c");
        final UverbsQpAttr attr = new UverbsQpAttr().wrap(kernel, 0, kernel.capacity());

        assertEquals(0x1e1, attr.qpAttrMask());
        assertEquals(3, attr.qpState());
        assertEquals(3, attr.pathMtu());
        assertEquals(0x123456, attr.rqPsn());
        assertEquals(0x11, attr.destQpNum());
        assertEquals(Gid.parse("::ffff:10.20.0.2"), attr.ahAttr().dgid());
        assertEquals(0x12345, attr.ahAttr().flowLabel());
        assertEquals(1, attr.ahAttr().sgidIndex());
        assertEquals(64, attr.ahAttr().hopLimit());
        assertEquals(0x1234, attr.ahAttr().dlid());
        assertTrue(attr.ahAttr().isGlobal());
        assertEquals(1, attr.ahAttr().portNum());
        assertEquals(2, attr.pkeyIndex());
        assertEquals(5, attr.maxDestRdAtomic());
        assertEquals(12, attr.minRnrTimer());
        assertEquals(14, attr.timeout());
    }

    @Test
    void shouldRefuseAnAddressTheKernelWouldNotTakeNamingTheFieldAndTheRule()
    {
        final UcmBind bind = new UcmBind().wrap(zeroed(UcmBind.LENGTH), 0);
        final IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
            () -> new UcmResolveIp().wrap(zeroed(UcmResolveIp.LENGTH), 0)
                .destination(new IbSockaddr(PKey.of(PKey.DEFAULT), 0, Gid.parse("fe80::2"), 0, 0, 0)));
        assertEquals("rdma_ucm_resolve_ip.dst_addr: gid=fe80::2 pkey=0xffff sid=0x0000000000000000 sid_mask=0x0000000000000000 " +
            "flowinfo=0 scope_id=0 is a 48-byte address of family 27; the kernel takes " +
            "sockaddr_in (16), sockaddr_in6 (28) and sockaddr_ib (48) only up to 28 bytes here", tooLong.getMessage());
        final IllegalArgumentException privateData = assertThrows(IllegalArgumentException.class,
            () -> new ConnParam().wrap(zeroed(ConnParam.LENGTH), 0).privateData(new byte[257]));
        assertEquals("rdma_ucm_conn_param.private_data: 257 bytes, the field holds 256", privateData.getMessage());
        assertEquals(0, bind.addrSize());
    }
}

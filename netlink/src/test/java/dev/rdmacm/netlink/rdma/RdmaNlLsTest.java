package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The RDMA netlink local-service codecs against the uapi headers compiled with gcc: constants, struct
 * layouts, and whole messages built in C with the kernel's own NLMSG/NLA macros. This kernel has no
 * NETLINK_RDMA (no CONFIG_INFINIBAND), so no live kernel exchange is possible here.
 */
class RdmaNlLsTest
{
    private static final String C_PRELUDE = """
        #include <stdio.h>
        #include <string.h>
        #include <stdint.h>
        #include <stddef.h>
        #include <linux/netlink.h>
        #include <rdma/rdma_netlink.h>
        #include <rdma/ib_user_sa.h>
        static unsigned char buf[1024];
        static int len;
        static void attr(int type, const void *data, int n) {
          struct nlattr *a = (struct nlattr *)(buf + len);
          a->nla_type = type; a->nla_len = NLA_HDRLEN + n;
          memcpy((char *)a + NLA_HDRLEN, data, n);
          len += NLA_ALIGN(a->nla_len);
        }
        static void dump(void) {
          for (int i = 0; i < len; i++) printf("%02x", buf[i]);
          printf("\\n");
        }
        static const unsigned char DGID[16] = {0xfe,0x80,0,0,0,0,0,0,0,0x02,0xc9,0x03,0,0,0,0x02};
        static const unsigned char SGID[16] = {0xfe,0x80,0,0,0,0,0,0,0,0x02,0xc9,0x03,0,0,0,0x01};
        """;

    private static final Gid DGID = Gid.parse("fe80::2:c903:0:2");
    private static final Gid SGID = Gid.parse("fe80::2:c903:0:1");

    private static String c(final String main)
    {
        Peers.requireFile("/usr/include/rdma/rdma_netlink.h", "libibverbs-dev");
        return CProgram.compileAndRun(C_PRELUDE + "int main(void) {\n" + main + "\n return 0; }\n").trim();
    }

    private static LsResolveRequest request()
    {
        return new LsResolveRequest(7, "mlx5_0", 1, RdmaNlLs.PATH_USE_GMP, 0x0000000001061d2fL, DGID, SGID, 0x20,
            0xffff, 0x0120);
    }

    @Test
    void shouldMatchUapiConstants()
    {
        final String output = c("""
            printf("%d %d %d %d %d %d %d %d %d\\n", RDMA_NL_IWCM, RDMA_NL_LS, RDMA_NL_NLDEV, RDMA_NL_GROUP_LS,
              RDMA_NL_LS_OP_RESOLVE, RDMA_NL_LS_OP_SET_TIMEOUT, RDMA_NL_LS_OP_IP_RESOLVE, RDMA_NL_LS_F_ERR,
              RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_IP_RESOLVE));
            printf("%d %d %d %d %d\\n", LS_RESOLVE_PATH_USE_ALL, LS_RESOLVE_PATH_USE_UNIDIRECTIONAL,
              LS_RESOLVE_PATH_USE_GMP, RDMA_NLA_F_MANDATORY, RDMA_NLA_TYPE_MASK & 0xffff);
            printf("%d %d %d %d %d %d %d %d %d %d %d\\n", LS_NLA_TYPE_PATH_RECORD, LS_NLA_TYPE_TIMEOUT,
              LS_NLA_TYPE_SERVICE_ID, LS_NLA_TYPE_DGID, LS_NLA_TYPE_SGID, LS_NLA_TYPE_TCLASS, LS_NLA_TYPE_PKEY,
              LS_NLA_TYPE_QOS_CLASS, LS_NLA_TYPE_IPV4, LS_NLA_TYPE_IPV6, LS_NLA_TYPE_MAX);
            printf("%d %d %d %d %d %d %d", IB_PATH_GMP, IB_PATH_PRIMARY, IB_PATH_ALTERNATE, IB_PATH_OUTBOUND,
              IB_PATH_INBOUND, IB_PATH_INBOUND_REVERSE, IB_PATH_BIDIRECTIONAL);
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d%n%d %d %d %d %d%n%d %d %d %d %d %d %d %d %d %d %d%n"
                + "%d %d %d %d %d %d %d",
            RdmaNlLs.CLIENT_IWCM, RdmaNlLs.CLIENT_LS, RdmaNlLs.CLIENT_NLDEV, RdmaNlLs.GROUP_LS, RdmaNlLs.OP_RESOLVE,
            RdmaNlLs.OP_SET_TIMEOUT, RdmaNlLs.OP_IP_RESOLVE, RdmaNlLs.F_ERR,
            RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE),
            RdmaNlLs.PATH_USE_ALL, RdmaNlLs.PATH_USE_UNIDIRECTIONAL, RdmaNlLs.PATH_USE_GMP, RdmaNlLs.NLA_F_MANDATORY,
            RdmaNlLs.NLA_TYPE_MASK,
            RdmaNlLs.NLA_TYPE_PATH_RECORD, RdmaNlLs.NLA_TYPE_TIMEOUT, RdmaNlLs.NLA_TYPE_SERVICE_ID,
            RdmaNlLs.NLA_TYPE_DGID, RdmaNlLs.NLA_TYPE_SGID, RdmaNlLs.NLA_TYPE_TCLASS, RdmaNlLs.NLA_TYPE_PKEY,
            RdmaNlLs.NLA_TYPE_QOS_CLASS, RdmaNlLs.NLA_TYPE_IPV4, RdmaNlLs.NLA_TYPE_IPV6, RdmaNlLs.NLA_TYPE_MAX,
            IbvPathData.FLAG_GMP, IbvPathData.FLAG_PRIMARY, IbvPathData.FLAG_ALTERNATE, IbvPathData.FLAG_OUTBOUND,
            IbvPathData.FLAG_INBOUND, IbvPathData.FLAG_INBOUND_REVERSE, IbvPathData.FLAG_BIDIRECTIONAL), output);
    }

    @Test
    void shouldMatchStructLayouts()
    {
        final String output = c("""
            printf("%zu %zu %zu %zu %zu %d %zu %zu %zu %zu %zu %zu %zu %d %d", sizeof(struct nlmsghdr),
              offsetof(struct nlmsghdr, nlmsg_type), offsetof(struct nlmsghdr, nlmsg_flags),
              offsetof(struct nlmsghdr, nlmsg_seq), offsetof(struct nlmsghdr, nlmsg_pid), NLMSG_HDRLEN,
              sizeof(struct rdma_ls_resolve_header), offsetof(struct rdma_ls_resolve_header, port_num),
              offsetof(struct rdma_ls_resolve_header, path_use), sizeof(struct rdma_ls_ip_resolve_header),
              sizeof(struct ib_path_rec_data), offsetof(struct ib_path_rec_data, path_rec),
              sizeof(struct nlattr), NLA_HDRLEN, NLMSG_ALIGN(sizeof(struct rdma_ls_resolve_header)));
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d", NetlinkMessageHeader.LENGTH,
            NetlinkMessageHeader.TYPE_OFFSET, NetlinkMessageHeader.FLAGS_OFFSET, NetlinkMessageHeader.SEQUENCE_OFFSET,
            NetlinkMessageHeader.PORT_ID_OFFSET,
            NetlinkMessageHeader.LENGTH, LsResolveHeader.LENGTH, LsResolveHeader.PORT_NUM_OFFSET,
            LsResolveHeader.PATH_USE_OFFSET, LsIpResolve.HEADER_LENGTH, LsResolveResponse.PATH_REC_DATA_LENGTH,
            LsResolveResponse.PATH_REC_OFFSET, NetlinkAttribute.HEADER_LENGTH, NetlinkAttribute.HEADER_LENGTH,
            LsResolveHeader.ALIGNED_LENGTH), output);
    }

    @Test
    void shouldEncodeResolveRequestAsTheKernelBuildsIt()
    {
        final String expected = c("""
            struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
            struct rdma_ls_resolve_header *h = NLMSG_DATA(nlh);
            uint64_t sid = 0x0000000001061d2fULL; uint8_t tclass = 0x20; uint16_t pkey = 0xffff, qos = 0x0120;
            nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE);
            nlh->nlmsg_flags = NLM_F_REQUEST; nlh->nlmsg_seq = 7;
            strcpy((char *)h->device_name, "mlx5_0"); h->port_num = 1; h->path_use = LS_RESOLVE_PATH_USE_GMP;
            len = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*h));
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_SERVICE_ID, &sid, 8);
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_DGID, DGID, 16);
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_SGID, SGID, 16);
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_TCLASS, &tclass, 1);
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_PKEY, &pkey, 2);
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_QOS_CLASS, &qos, 2);
            nlh->nlmsg_len = len;
            dump();
            """);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final int length = request().encode(buffer, 0);
        assertEquals(expected, BitUtil.toHex(buffer.byteArray(), 0, length));
    }

    @Test
    void shouldDecodeResolveRequestFields()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final int length = request().encode(buffer, 0);
        final LsResolveRequest decoded = LsResolveRequest.decode(buffer, 0, length);
        assertEquals(request(), decoded);
        final byte[] template = decoded.pathTemplate();
        assertEquals("0000000001061d2f" + "fe800000000000000002c90300000002" + "fe800000000000000002c90300000001"
            + "0000" + "0000" + "00000000" + "20" + "81" + "ffff" + "0120" + "00".repeat(10), BitUtil.toHex(template));
    }

    @Test
    void shouldRejectUnknownMandatoryAttribute()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        int length = new LsResolveRequest(1, "mlx5_0", 1, 0, null, DGID, null, null, null, null).encode(buffer, 0);
        length = NetlinkAttribute.putU32(buffer, length, RdmaNlLs.NLA_F_MANDATORY | 42, 1);
        new NetlinkMessageHeader().wrap(buffer, 0).length(length);
        final int total = length;
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> LsResolveRequest.decode(buffer, 0, total));
        assertEquals("LS RESOLVE request: attribute type 42 is unknown and marked mandatory", ex.getMessage());
    }

    @Test
    void shouldRejectAttributeRunningPastTheMessage()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final int length = request().encode(buffer, 0);
        buffer.putShort(NetlinkMessageHeader.LENGTH + LsResolveHeader.ALIGNED_LENGTH, (short)500, RdmaNlLs.HOST_ORDER);
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> LsResolveRequest.decode(buffer, 0, length));
        assertEquals("LS RESOLVE request: attribute type 3 at byte 0 has nla_len 500, which must be 4..76",
            ex.getMessage());
    }

    @Test
    void shouldEncodePathResponseAsIbacmDoes()
    {
        final String expected = c("""
            struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
            struct ib_path_rec_data rec;
            memset(&rec, 0, sizeof rec);
            rec.flags = IB_PATH_PRIMARY | IB_PATH_GMP | IB_PATH_BIDIRECTIONAL;
            memset(rec.path_rec, 0xab, sizeof rec.path_rec);
            nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE);
            nlh->nlmsg_seq = 7; nlh->nlmsg_pid = 4242;
            len = NLMSG_HDRLEN;
            attr(LS_NLA_TYPE_PATH_RECORD, &rec, sizeof rec);
            nlh->nlmsg_len = len;
            dump();
            """);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final byte[] path = new byte[64];
        java.util.Arrays.fill(path, (byte)0xab);
        final int length = LsResolveResponse.encodePath(buffer, 0, request(), 4242, path);
        assertEquals(expected, BitUtil.toHex(buffer.byteArray(), 0, length));
        assertArrayEquals(path, LsResolveResponse.decodePath(buffer, 0, length));
    }

    @Test
    void shouldEncodeErrorResponseWithErrFlagOnly()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final int length = LsResolveResponse.encodeError(buffer, 0, request(), 1);
        assertEquals(16, length);
        assertEquals(RdmaNlLs.F_ERR, new NetlinkMessageHeader().wrap(buffer, 0, length).flags());
        assertNull(LsResolveResponse.decodePath(buffer, 0, length));
    }

    @Test
    void shouldEncodeSetTimeoutAsCBuildsIt()
    {
        final String expected = c("""
            struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
            uint32_t timeout = 1500;
            nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_SET_TIMEOUT);
            nlh->nlmsg_flags = NLM_F_REQUEST; nlh->nlmsg_seq = 3; nlh->nlmsg_pid = 99;
            len = NLMSG_HDRLEN;
            attr(LS_NLA_TYPE_TIMEOUT, &timeout, 4);
            nlh->nlmsg_len = len;
            dump();
            """);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final int length = LsSetTimeout.encode(buffer, 0, 3, 99, 1500);
        assertEquals(expected, BitUtil.toHex(buffer.byteArray(), 0, length));
        assertEquals(1500, LsSetTimeout.decodeTimeoutMs(buffer, 0, length));
    }

    @Test
    void shouldRoundTripIpResolveRequestAndResponseAsCBuildsThem()
    {
        final String expected = c("""
            struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
            struct rdma_ls_ip_resolve_header *h = NLMSG_DATA(nlh);
            const unsigned char ip[4] = {192, 0, 2, 3};
            nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_IP_RESOLVE);
            nlh->nlmsg_flags = NLM_F_REQUEST; nlh->nlmsg_seq = 11;
            h->ifindex = 4;
            len = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*h));
            attr(RDMA_NLA_F_MANDATORY | LS_NLA_TYPE_IPV4, ip, 4);
            nlh->nlmsg_len = len;
            dump();
            memset(buf, 0, sizeof buf);
            nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_IP_RESOLVE);
            nlh->nlmsg_seq = 11; nlh->nlmsg_pid = 5;
            len = NLMSG_HDRLEN;
            attr(LS_NLA_TYPE_DGID, DGID, 16);
            nlh->nlmsg_len = len;
            dump();
            """);
        final LsIpResolve request = new LsIpResolve(11, 4, new byte[] {(byte)192, 0, 2, 3});
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final int requestLength = request.encode(buffer, 0);
        final String requestHex = BitUtil.toHex(buffer.byteArray(), 0, requestLength);
        final LsIpResolve decoded = LsIpResolve.decode(buffer, 0, requestLength);
        assertEquals(11, decoded.seq());
        assertEquals(4, decoded.ifindex());
        assertArrayEquals(new byte[] {(byte)192, 0, 2, 3}, decoded.address());

        final int responseLength = decoded.encodeResponse(buffer, 0, 5, DGID);
        assertEquals(expected, requestHex + "\n" + BitUtil.toHex(buffer.byteArray(), 0, responseLength));
        assertEquals(DGID, LsIpResolve.decodeResponse(buffer, 0, responseLength));
    }

    @Test
    void shouldComposeAndSplitMessageTypes()
    {
        final int type = RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE);
        assertEquals(0x1002, type);
        assertEquals(RdmaNlLs.CLIENT_LS, RdmaNlLs.client(type));
        assertEquals(RdmaNlLs.OP_IP_RESOLVE, RdmaNlLs.op(type));
    }
}

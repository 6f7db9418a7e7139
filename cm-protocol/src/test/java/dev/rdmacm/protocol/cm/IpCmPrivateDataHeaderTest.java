package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CProgram;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static dev.rdmacm.protocol.cm.IpCmPrivateDataHeader.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IpCmPrivateDataHeaderTest
{
    /**
     * The kernel's layout (drivers/infiniband/core/cma.c, struct cma_hdr and union cma_ip_addr) and its
     * way of filling it in cma_format_hdr() / cma_set_ip_ver(), restated for a userspace C probe: no
     * installed header declares it.
     */
    private static final String KERNEL_CMA_HDR = """
        #include <stdio.h>
        #include <stdint.h>
        #include <stddef.h>
        #include <string.h>
        #include <arpa/inet.h>
        union cma_ip_addr {
          struct in6_addr ip6;
          struct { uint32_t pad[3]; uint32_t addr; } ip4;
        };
        struct cma_hdr {
          uint8_t cma_version;
          uint8_t ip_version; /* IP version: 7:4 */
          uint16_t port;
          union cma_ip_addr src_addr;
          union cma_ip_addr dst_addr;
        };
        #define CMA_VERSION 0x00
        static void cma_set_ip_ver(struct cma_hdr *hdr, uint8_t ip_ver)
        {
          hdr->ip_version = (ip_ver << 4) | (hdr->ip_version & 0xF);
        }
        static void dump(const void *p, size_t length)
        {
          for (size_t i = 0; i < length; i++) printf("%02x", ((const uint8_t *)p)[i]);
          printf("\\n");
        }
        int main(void)
        {
          struct cma_hdr hdr;
          printf("%zu %zu %zu %zu %zu %zu %zu\\n", sizeof(struct cma_hdr), offsetof(struct cma_hdr, cma_version),
            offsetof(struct cma_hdr, ip_version), offsetof(struct cma_hdr, port), offsetof(struct cma_hdr, src_addr),
            offsetof(struct cma_hdr, dst_addr), offsetof(union cma_ip_addr, ip4.addr));
          memset(&hdr, 0, sizeof(hdr));
          hdr.cma_version = CMA_VERSION;
          cma_set_ip_ver(&hdr, 4);
          hdr.port = htons(49152);
          inet_pton(AF_INET, "192.168.7.1", &hdr.src_addr.ip4.addr);
          inet_pton(AF_INET, "10.255.0.254", &hdr.dst_addr.ip4.addr);
          dump(&hdr, sizeof(hdr));
          memset(&hdr, 0, sizeof(hdr));
          hdr.cma_version = CMA_VERSION;
          cma_set_ip_ver(&hdr, 6);
          hdr.port = htons(65535);
          inet_pton(AF_INET6, "fe80::2:c903:a:1234", &hdr.src_addr.ip6);
          inet_pton(AF_INET6, "2001:db8::ff00:42:8329", &hdr.dst_addr.ip6);
          dump(&hdr, sizeof(hdr));
          return 0;
        }
        """;

    @Test
    void shouldMatchTheKernelsCmaHdrLayoutAndBytes() throws Exception
    {
        final String[] lines = CProgram.compileAndRun(KERNEL_CMA_HDR).split("\n");

        assertEquals(LENGTH + " " + VERSION_OFFSET + " " + IP_VERSION_OFFSET + " " + SOURCE_PORT_OFFSET + " " +
            SOURCE_ADDRESS_OFFSET + " " + DESTINATION_ADDRESS_OFFSET + " " + IPV4_IN_ADDRESS_OFFSET, lines[0]);
        assertEquals(lines[1], BitUtil.toHex(encode("192.168.7.1", "10.255.0.254", 49152)));
        assertEquals(lines[2], BitUtil.toHex(encode("fe80::2:c903:a:1234", "2001:db8::ff00:42:8329", 65535)));
    }

    @Test
    void shouldDecodeWhatTheKernelLayoutHolds() throws Exception
    {
        final String[] lines = CProgram.compileAndRun(KERNEL_CMA_HDR).split("\n");
        final IpCmPrivateDataHeader v4 = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(BitUtil.fromHex(lines[1])),
            0, LENGTH);
        final IpCmPrivateDataHeader v6 = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(BitUtil.fromHex(lines[2])),
            0, LENGTH);

        assertEquals("IpCm{majv=0, minv=0, ipv=4, sport=49152, sip4=192.168.7.1, dip4=10.255.0.254}", v4.toString());
        assertEquals(0xc0a8_0701, v4.sourceIpv4());
        assertEquals(0x0aff_00fe, v4.destinationIpv4());
        assertEquals(InetAddress.getByName("fe80::2:c903:a:1234"), v6.sourceAddress());
        assertEquals(0xfe80_0000_0000_0000L, v6.sourceIpv6High());
        assertEquals(0x0002_c903_000a_1234L, v6.sourceIpv6Low());
        assertEquals(0x2001_0db8_0000_0000L, v6.destinationIpv6High());
        assertEquals(0x0000_ff00_0042_8329L, v6.destinationIpv6Low());
        assertEquals(65535, v6.sourcePort());
    }

    @Test
    void shouldSplitTheVersionByteAsTsharkDoes()
    {
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(new byte[LENGTH]), 0)
            .version(0x12);

        assertEquals(1, header.majorVersion());
        assertEquals(2, header.minorVersion());
        header.majorVersion(15).minorVersion(0);
        assertEquals(0xf0, header.version());
    }

    @Test
    void shouldRoundTripEveryFieldAtZeroAndMaximumWithoutDisturbingItsNeighbours()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[LENGTH]);
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader().wrap(buffer, 0)
            .majorVersion(15).minorVersion(15).ipVersion(15).sourcePort(0xffff)
            .sourceIpv6(-1L, -1L).destinationIpv6(-1L, -1L);

        assertEquals(BitUtil.toHex(buffer.byteArray()), "fff0ffff" + "ff".repeat(32));
        header.majorVersion(0);
        assertEquals(15, header.minorVersion());
        header.minorVersion(0).ipVersion(0).sourcePort(0).sourceIpv4(0).destinationIpv6(0, 0);
        assertEquals("00".repeat(LENGTH), BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldZeroThePadBeforeAnIpv4Address()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[LENGTH]);
        new IpCmPrivateDataHeader().wrap(buffer, 0).sourceIpv6(-1L, -1L).sourceIpv4(0x0a000001);

        assertEquals("00000000" + "000000000000000000000000" + "0a000001" + "00".repeat(16),
            BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldLeadTheRequestsPrivateData() throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        final ConnectRequest request = new ConnectRequest().wrap(buffer, 0);
        new IpCmPrivateDataHeader().wrap(request).sourcePort(7471)
            .addresses(InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2"));

        assertEquals("00401d2f" + "00".repeat(12) + "0a000001" + "00".repeat(12) + "0a000002" + "00".repeat(56),
            BitUtil.toHex(request.privateData()));
    }

    @Test
    void shouldPutTheKernelsHeaderBeforeTheConsumersPrivateData() throws Exception
    {
        final String[] lines = CProgram.compileAndRun(KERNEL_CMA_HDR).split("\n");

        final byte[] data = IpCmPrivateDataHeader.privateData(InetAddress.getByName("192.168.7.1"),
            InetAddress.getByName("10.255.0.254"), 49152, new byte[] {(byte)0xca, (byte)0xfe});

        assertEquals(lines[1] + "cafe", BitUtil.toHex(data));
    }

    @Test
    void shouldRefuseAddressesOfDifferentFamilies() throws Exception
    {
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(new byte[LENGTH]), 0);
        final InetAddress v4 = InetAddress.getByName("10.0.0.1");
        final InetAddress v6 = InetAddress.getByName("fe80::1");

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> header.addresses(v4, v6));
        assertEquals("RDMA IP CM header: source /10.0.0.1 and destination /fe80:0:0:0:0:0:0:1 must both be IPv4 or " +
            "both IPv6", ex.getMessage());
    }

    @Test
    void shouldRejectAnAddressReadWhenIpVersionIsNeither4Nor6()
    {
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(new byte[LENGTH]), 0, LENGTH);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class, header::sourceAddress);
        assertEquals("RDMA IP CM private data header: ipv 0 is neither 4 nor 6, so sip cannot be read", ex.getMessage());
        assertEquals("IpCm{majv=0, minv=0, ipv=0, sport=0}", header.toString());
    }

    @Test
    void shouldRejectHeaderShorterThan36Bytes()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(new byte[LENGTH]), 0, LENGTH - 1));
        assertEquals("RDMA IP CM private data header: 35 bytes present, the format needs at least 36", ex.getMessage());
    }

    private static byte[] encode(final String source, final String destination, final int port) throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[LENGTH]);
        new IpCmPrivateDataHeader().wrap(buffer, 0).version(CMA_VERSION).sourcePort(port)
            .addresses(InetAddress.getByName(source), InetAddress.getByName(destination));
        return buffer.byteArray();
    }
}

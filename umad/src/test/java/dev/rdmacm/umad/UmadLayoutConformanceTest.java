package dev.rdmacm.umad;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The umad ABI as this module writes it by hand, against the kernel's uapi header
 * {@code <rdma/ib_user_mad.h>} compiled with gcc (offsets, sizes, ioctl numbers, the ABI version)
 * and against libibumad, whose {@code umad_set_addr}/{@code umad_set_grh} put each address field
 * into a real {@code struct ib_user_mad} in the byte order the kernel expects.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UmadLayoutConformanceTest
{
    private static final HexFormat HEX = HexFormat.of();

    /** struct, member, the offset this module uses, the member's size. */
    private record Member(String struct, String member, int offset, int size)
    {
    }

    private static final List<Member> MEMBERS = List.of(
        new Member("struct ib_user_mad_hdr", "id", UserMadHeader.AGENT_ID_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "status", UserMadHeader.STATUS_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "timeout_ms", UserMadHeader.TIMEOUT_MS_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "retries", UserMadHeader.RETRIES_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "length", UserMadHeader.LENGTH_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "qpn", UserMadHeader.QPN_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "qkey", UserMadHeader.QKEY_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "lid", UserMadHeader.LID_OFFSET, 2),
        new Member("struct ib_user_mad_hdr", "sl", UserMadHeader.SL_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "path_bits", UserMadHeader.PATH_BITS_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "grh_present", UserMadHeader.GRH_PRESENT_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "gid_index", UserMadHeader.GID_INDEX_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "hop_limit", UserMadHeader.HOP_LIMIT_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "traffic_class", UserMadHeader.TRAFFIC_CLASS_OFFSET, 1),
        new Member("struct ib_user_mad_hdr", "gid", UserMadHeader.GID_OFFSET, 16),
        new Member("struct ib_user_mad_hdr", "flow_label", UserMadHeader.FLOW_LABEL_OFFSET, 4),
        new Member("struct ib_user_mad_hdr", "pkey_index", UserMadHeader.PKEY_INDEX_OFFSET, 2),
        new Member("struct ib_user_mad_hdr", "reserved", UserMadHeader.RESERVED_OFFSET, UserMadHeader.RESERVED_LENGTH),
        new Member("struct ib_user_mad", "data", UserMadHeader.LENGTH, 0),
        new Member("struct ib_user_mad_reg_req2", "id", AgentRegistrationRequest.ID_OFFSET, 4),
        new Member("struct ib_user_mad_reg_req2", "qpn", AgentRegistrationRequest.QPN_OFFSET, 4),
        new Member("struct ib_user_mad_reg_req2", "mgmt_class", AgentRegistrationRequest.MGMT_CLASS_OFFSET, 1),
        new Member("struct ib_user_mad_reg_req2", "mgmt_class_version", AgentRegistrationRequest.MGMT_CLASS_VERSION_OFFSET, 1),
        new Member("struct ib_user_mad_reg_req2", "res", AgentRegistrationRequest.RES_OFFSET, 2),
        new Member("struct ib_user_mad_reg_req2", "flags", AgentRegistrationRequest.FLAGS_OFFSET, 4),
        new Member("struct ib_user_mad_reg_req2", "method_mask", AgentRegistrationRequest.METHOD_MASK_OFFSET, 16),
        new Member("struct ib_user_mad_reg_req2", "oui", AgentRegistrationRequest.OUI_OFFSET, 4),
        new Member("struct ib_user_mad_reg_req2", "rmpp_version", AgentRegistrationRequest.RMPP_VERSION_OFFSET, 1),
        new Member("struct ib_user_mad_reg_req2", "reserved", AgentRegistrationRequest.RESERVED_OFFSET, 3));

    @Test
    void shouldMatchTheKernelHeaderForEveryMemberAndSize()
    {
        Peers.requireFile("/usr/include/rdma/ib_user_mad.h", "linux-libc-dev");
        final StringBuilder c = new StringBuilder("""
            #include <stdio.h>
            #include <stddef.h>
            #include <rdma/ib_user_mad.h>
            #define F(t, m) printf("%s.%s %zu %zu\\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m))
            int main(void) {
            """);
        final StringBuilder expected = new StringBuilder();
        for (final Member member : MEMBERS)
        {
            if (member.size() == 0)
            {
                // a flexible array member: sizeof is not defined for it
                c.append("  printf(\"%s.%s %zu 0\\n\", \"").append(member.struct()).append("\", \"").append(member.member())
                    .append("\", offsetof(").append(member.struct()).append(", ").append(member.member()).append("));\n");
            }
            else
            {
                c.append("  F(").append(member.struct()).append(", ").append(member.member()).append(");\n");
            }
            expected.append(member.struct()).append('.').append(member.member()).append(' ').append(member.offset()).append(' ')
                .append(member.size()).append('\n');
        }
        c.append("""
              printf("sizeof hdr %zu\\n", sizeof(struct ib_user_mad_hdr));
              printf("sizeof reg_req2 %zu\\n", sizeof(struct ib_user_mad_reg_req2));
              return 0;
            }
            """);
        expected.append("sizeof hdr ").append(UserMadHeader.LENGTH).append('\n')
            .append("sizeof reg_req2 ").append(AgentRegistrationRequest.LENGTH).append('\n');

        assertEquals(expected.toString(), CProgram.compileAndRun(c.toString()));
    }

    @Test
    void shouldMatchTheKernelHeaderForTheIoctlNumbersAndAbiVersion()
    {
        Peers.requireFile("/usr/include/rdma/ib_user_mad.h", "linux-libc-dev");
        final String header = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <rdma/ib_user_mad.h>
            int main(void) {
              printf("%lx %lx %lx %d\\n", (unsigned long)IB_USER_MAD_REGISTER_AGENT2,
                (unsigned long)IB_USER_MAD_UNREGISTER_AGENT, (unsigned long)IB_USER_MAD_ENABLE_PKEY, IB_USER_MAD_ABI_VERSION);
              return 0;
            }
            """);
        assertEquals(Long.toHexString(UmadIoctl.REGISTER_AGENT2) + " " + Long.toHexString(UmadIoctl.UNREGISTER_AGENT) + " " +
            Long.toHexString(UmadIoctl.ENABLE_PKEY) + " " + UmadDevice.ABI_VERSION + "\n", header);
    }

    @Test
    void shouldReadTheAddressThatLibibumadWrites()
    {
        final byte[] libibumad = HEX.parseHex(libibumadHeader());
        final UserMadHeader header = new UserMadHeader().wrap(new UnsafeBuffer(libibumad), 0, libibumad.length);

        assertEquals(7, header.agentId());
        assertEquals(110, header.status());
        assertEquals(500, header.timeoutMs());
        assertEquals(3, header.retries());
        assertEquals(320, header.length());
        assertEquals(new MadAddress(0xabcdef, 0x8001_0000L, 0x1234, 5, 0, 9,
            new MadAddress.Grh(Gid.parse("2001:db8::1"), 3, 64, 0x20, 0x12345)), header.address());
    }

    @Test
    void shouldWriteTheBytesThatLibibumadWrites()
    {
        final UnsafeBuffer ours = new UnsafeBuffer(new byte[UserMadHeader.LENGTH]);
        final UserMadHeader header = new UserMadHeader().wrap(ours, 0).clear()
            .agentId(7).status(110).timeoutMs(500).retries(3).length(320);
        header.address(new MadAddress(0xabcdef, 0x8001_0000L, 0x1234, 5, 0, 9,
            new MadAddress.Grh(Gid.parse("2001:db8::1"), 3, 64, 0x20, 0x12345)));

        assertEquals(libibumadHeader(), HEX.formatHex(ours.byteArray()));
    }

    @Test
    void shouldZeroTheGrhFieldsOfAnAddressWithoutOne()
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[UserMadHeader.LENGTH]);
        final UserMadHeader header = new UserMadHeader().wrap(bytes, 0);
        header.address(MadAddress.gsi(Gid.parse("2001:db8::1"), 3, 0));
        header.address(MadAddress.gsi(0x11, 2, 0));

        assertNull(header.address().grh());
        assertEquals("00".repeat(UserMadHeader.PKEY_INDEX_OFFSET - UserMadHeader.GRH_PRESENT_OFFSET), HEX.formatHex(bytes.byteArray(), UserMadHeader.GRH_PRESENT_OFFSET, UserMadHeader.PKEY_INDEX_OFFSET));
    }

    /** The 64 header bytes, in hex, of a struct ib_user_mad that libibumad's own setters filled. */
    private static String libibumadHeader()
    {
        Peers.requireFile("/usr/include/infiniband/umad.h", "libibumad-dev");
        return CProgram.compileAndRun("""
            #include <stdio.h>
            #include <string.h>
            #include <arpa/inet.h>
            #include <infiniband/umad.h>
            int main(void) {
              static unsigned char bytes[64 + 256];
              struct ib_user_mad *umad = (struct ib_user_mad *)bytes;
              ib_mad_addr_t grh;
              memset(&grh, 0, sizeof grh);
              inet_pton(AF_INET6, "2001:db8::1", grh.gid);
              grh.hop_limit = 64;
              grh.traffic_class = 0x20;
              grh.flow_label = 0x12345;          /* umad_set_grh takes it in host order */
              umad_set_addr(umad, 0x1234, 0xabcdef, 5, 0x80010000);
              umad_set_grh(umad, &grh);
              umad->addr.gid_index = 3;          /* umad_set_grh leaves it to the caller */
              umad->addr.pkey_index = 9;         /* umad_set_pkey does so only after umad_open_port */
              umad->agent_id = 7;
              umad->status = 110;
              umad->timeout_ms = 500;
              umad->retries = 3;
              umad->length = 320;
              for (int i = 0; i < 64; i++) printf("%02x", bytes[i]);
              return 0;
            }
            """, "-libumad");
    }
}

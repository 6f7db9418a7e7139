package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassPortInfoTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ClassPortInfo.LENGTH]);
    private final ClassPortInfo info = new ClassPortInfo();

    @Test
    void shouldMatchUmadTypesLayoutAndSaCapabilityBits()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("sizeof(struct umad_class_port_info)", ClassPortInfo.LENGTH),
            entry("offsetof(struct umad_class_port_info, base_ver)", ClassPortInfo.BASE_VERSION_OFFSET),
            entry("offsetof(struct umad_class_port_info, class_ver)", ClassPortInfo.CLASS_VERSION_OFFSET),
            entry("offsetof(struct umad_class_port_info, cap_mask)", ClassPortInfo.CAPABILITY_MASK_OFFSET),
            entry("offsetof(struct umad_class_port_info, cap_mask2_resp_time)",
                ClassPortInfo.CAPABILITY_MASK2_RESP_TIME_OFFSET),
            entry("offsetof(struct umad_class_port_info, redirgid)", ClassPortInfo.REDIRECT_GID_OFFSET),
            entry("offsetof(struct umad_class_port_info, redir_tc_sl_fl)", ClassPortInfo.REDIRECT_TC_SL_FL_OFFSET),
            entry("offsetof(struct umad_class_port_info, redir_lid)", ClassPortInfo.REDIRECT_LID_OFFSET),
            entry("offsetof(struct umad_class_port_info, redir_pkey)", ClassPortInfo.REDIRECT_P_KEY_OFFSET),
            entry("offsetof(struct umad_class_port_info, redir_qp)", ClassPortInfo.REDIRECT_QP_OFFSET),
            entry("offsetof(struct umad_class_port_info, redir_qkey)", ClassPortInfo.REDIRECT_Q_KEY_OFFSET),
            entry("offsetof(struct umad_class_port_info, trapgid)", ClassPortInfo.TRAP_GID_OFFSET),
            entry("offsetof(struct umad_class_port_info, trap_tc_sl_fl)", ClassPortInfo.TRAP_TC_SL_FL_OFFSET),
            entry("offsetof(struct umad_class_port_info, trap_lid)", ClassPortInfo.TRAP_LID_OFFSET),
            entry("offsetof(struct umad_class_port_info, trap_pkey)", ClassPortInfo.TRAP_P_KEY_OFFSET),
            entry("offsetof(struct umad_class_port_info, trap_hl_qp)", ClassPortInfo.TRAP_HOP_LIMIT_QP_OFFSET),
            entry("offsetof(struct umad_class_port_info, trap_qkey)", ClassPortInfo.TRAP_Q_KEY_OFFSET),
            entry("UMAD_CLASS_RESP_TIME_MASK", (1 << ClassPortInfo.RESP_TIME_WIDTH) - 1),
            entry("UMAD_SA_CAP_MASK_IS_SUBNET_OPT_REC_SUP", ClassPortInfo.SA_CAP_OPTIONAL_RECORDS),
            entry("UMAD_SA_CAP_MASK_IS_UD_MCAST_SUP", ClassPortInfo.SA_CAP_UD_MULTICAST),
            entry("UMAD_SA_CAP_MASK_IS_MULTIPATH_SUP", ClassPortInfo.SA_CAP_MULTI_PATH),
            entry("UMAD_SA_CAP_MASK_IS_REINIT_SUP", ClassPortInfo.SA_CAP_REINIT),
            entry("UMAD_SA_CAP_MASK_IS_GID_SCOPED_MULTIPATH_SUP", ClassPortInfo.SA_CAP_GID_SCOPED_MULTI_PATH),
            entry("UMAD_SA_CAP_MASK_IS_PORTINFO_CAP_MASK_MATCH_SUP", ClassPortInfo.SA_CAP_PORT_INFO_CAP_MASK_MATCH),
            entry("UMAD_SA_CAP_MASK_IS_LINK_SPEED_WIDTH_PAIRS_REC_SUP", ClassPortInfo.SA_CAP_LINK_SPEED_WIDTH_PAIRS),
            entry("UMAD_SA_CAP_MASK_IS_PA_SERVICES_SUP", ClassPortInfo.SA_CAP_PA_SERVICES),
            entry("UMAD_SA_CAP_MASK2_IS_UNPATH_REPATH_SUP", ClassPortInfo.SA_CAP2_UNPATH_REPATH),
            entry("UMAD_SA_CAP_MASK2_IS_QOS_SUP", ClassPortInfo.SA_CAP2_QOS),
            entry("UMAD_SA_CAP_MASK2_IS_REV_PATH_PKEY_MEM_BIT_SUP", ClassPortInfo.SA_CAP2_REVERSE_PATH_P_KEY_MEMBER_BIT),
            entry("UMAD_SA_CAP_MASK2_IS_MCAST_TOP_SUP", ClassPortInfo.SA_CAP2_MULTICAST_TOPOLOGY),
            entry("UMAD_SA_CAP_MASK2_IS_HIERARCHY_INFO_SUP", ClassPortInfo.SA_CAP2_HIERARCHY_INFO),
            entry("UMAD_SA_CAP_MASK2_IS_ADDITIONAL_GUID_SUP", ClassPortInfo.SA_CAP2_ADDITIONAL_GUID),
            entry("UMAD_SA_CAP_MASK2_IS_FULL_PORTINFO_REC_SUP", ClassPortInfo.SA_CAP2_FULL_PORT_INFO_RECORD),
            entry("UMAD_SA_CAP_MASK2_IS_EXT_SPEEDS_SUP", ClassPortInfo.SA_CAP2_EXTENDED_SPEEDS),
            entry("UMAD_SA_CAP_MASK2_IS_MCAST_SERVICE_REC_SUP", ClassPortInfo.SA_CAP2_MULTICAST_SERVICE_RECORD),
            entry("UMAD_SA_CAP_MASK2_IS_CABLE_INFO_REC_SUP", ClassPortInfo.SA_CAP2_CABLE_INFO_RECORD),
            entry("UMAD_SA_CAP_MASK2_IS_PORT_INFO_CAPMASK2_MATCH_SUP", ClassPortInfo.SA_CAP2_PORT_INFO_CAP_MASK2_MATCH),
            entry("UMAD_SA_CAP_MASK2_IS_PORT_INFO_EXT_REC_SUP", ClassPortInfo.SA_CAP2_PORT_INFO_EXTENDED_RECORD)));
    }

    @Test
    void shouldMatchOpenSmClassPortInfo()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_class_port_info_t)", ClassPortInfo.LENGTH),
            entry("offsetof(ib_class_port_info_t, redir_gid)", ClassPortInfo.REDIRECT_GID_OFFSET),
            entry("offsetof(ib_class_port_info_t, trap_hop_qp)", ClassPortInfo.TRAP_HOP_LIMIT_QP_OFFSET),
            entry("IB_CLASS_CAP_TRAP", ClassPortInfo.CAP_TRAP),
            entry("IB_CLASS_CAP_GETSET", ClassPortInfo.CAP_GET_SET),
            entry("IB_CLASS_CAP_CAPMASK2", ClassPortInfo.CAP_CAPABILITY_MASK2),
            entry("IB_CLASS_RESP_TIME_MASK", (1 << ClassPortInfo.RESP_TIME_WIDTH) - 1),
            entry("IB_CLASS_CAPMASK2_SHIFT", ClassPortInfo.CAPABILITY_MASK2_SHIFT)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmSettersBuild()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, """
              ib_class_port_info_t c;
              memset(&c, 0, sizeof(c));
              c.base_ver = 1;
              c.class_ver = 2;
              c.cap_mask = cl_hton16(IB_CLASS_CAP_GETSET | IB_CLASS_CAP_CAPMASK2 | (1 << 10));
              ib_class_set_cap_mask2(&c, 0x4001f);
              ib_class_set_resp_time_val(&c, 18);
              c.redir_gid.unicast.prefix = cl_hton64(0xfe80000000000000ULL);
              c.redir_gid.unicast.interface_id = cl_hton64(0x0000000000100004ULL);
              c.redir_tc_sl_fl = cl_hton32((0xa5u << 24) | (0x7u << 20) | 0xbcdef);
              c.redir_lid = cl_hton16(4);
              c.redir_pkey = cl_hton16(0xffff);
              c.redir_qp = cl_hton32(0x000001);
              c.redir_qkey = cl_hton32(0x80010000);
              c.trap_gid.unicast.prefix = cl_hton64(0xfe80000000000000ULL);
              c.trap_gid.unicast.interface_id = cl_hton64(0x0000000000100001ULL);
              c.trap_tc_sl_fl = cl_hton32((0x01u << 24) | (0xfu << 20) | 0x00001);
              c.trap_lid = cl_hton16(1);
              c.trap_pkey = cl_hton16(0x7fff);
              c.trap_hop_qp = cl_hton32((0x40u << 24) | 0xabcdef);
              c.trap_qkey = cl_hton32(0x01234567);
            """, "c", CHeaders.OPENSM_FLAGS);

        info.wrap(buffer, 0).clear().baseVersion(1).classVersion(2)
            .capabilityMask(ClassPortInfo.CAP_GET_SET | ClassPortInfo.CAP_CAPABILITY_MASK2 |
                ClassPortInfo.SA_CAP_MULTI_PATH)
            .capabilityMask2(0x4001f).respTimeValue(18)
            .redirectGid(Gid.parse("fe80::10:4")).redirectTc(0xa5).redirectSl(7).redirectFl(0xbcdef).redirectLid(4)
            .redirectPKey(0xffff).redirectQp(1).redirectQKey(0x8001_0000L)
            .trapGid(Gid.parse("fe80::10:1")).trapTc(1).trapSl(0xf).trapFl(1).trapLid(1).trapPKey(0x7fff)
            .trapHopLimit(0x40).trapQp(0xabcdef).trapQKey(0x0123_4567L);

        assertEquals(fromC, CHeaders.hex(buffer, 0, ClassPortInfo.LENGTH));
    }

    @Test
    void shouldReadWhatUmadTypesHelpersRead()
    {
        Peers.requireFile("/usr/include/infiniband/umad_types.h", "libibumad-dev");
        final String fromC = dev.rdmacm.testing.CProgram.compileAndRun("""
            #include <stdio.h>
            #include <string.h>
            #include <endian.h>
            #include <infiniband/umad_types.h>
            int main(void) {
              struct umad_class_port_info c;
              memset(&c, 0, sizeof(c));
              c.cap_mask2_resp_time = htobe32((0x7ffffffu << 5) | 19);
              printf("%u %u\\n", umad_class_cap_mask2(&c), umad_class_resp_time(&c));
              return 0;
            }
            """);

        info.wrap(buffer, 0).clear().capabilityMask2(0x7ff_ffff).respTimeValue(19);

        assertEquals(fromC.strip(), info.capabilityMask2() + " " + info.respTimeValue());
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        info.wrap(buffer, 0).clear().baseVersion(0xff).classVersion(0xff).capabilityMask(0xffff)
            .capabilityMask2(0x7ff_ffff).respTimeValue(0x1f).redirectGid(-1L, -1L).redirectTc(0xff).redirectSl(0xf)
            .redirectFl(0xfffff).redirectLid(0xffff).redirectPKey(0xffff).redirectQp(0xff_ffff)
            .redirectQKey(0xffff_ffffL).trapGid(-1L, -1L).trapTc(0xff).trapSl(0xf).trapFl(0xfffff).trapLid(0xffff)
            .trapPKey(0xffff).trapHopLimit(0xff).trapQp(0xff_ffff).trapQKey(0xffff_ffffL);

        info.wrap(buffer, 0, ClassPortInfo.LENGTH);
        assertEquals(0xff, info.baseVersion());
        assertEquals(0xff, info.classVersion());
        assertEquals(0xffff, info.capabilityMask());
        assertEquals(0x7ff_ffff, info.capabilityMask2());
        assertEquals(0x1f, info.respTimeValue());
        assertEquals(new Gid(-1L, -1L), info.redirectGid());
        assertEquals(-1L, info.redirectGidPrefix());
        assertEquals(-1L, info.redirectGidInterfaceId());
        assertEquals(0xff, info.redirectTc());
        assertEquals(0xf, info.redirectSl());
        assertEquals(0xfffff, info.redirectFl());
        assertEquals(0xffff, info.redirectLid());
        assertEquals(0xffff, info.redirectPKey());
        assertEquals(0xff_ffff, info.redirectQp());
        assertEquals(0xffff_ffffL, info.redirectQKey());
        assertEquals(-1L, info.trapGidPrefix());
        assertEquals(-1L, info.trapGidInterfaceId());
        assertEquals(0xff, info.trapTc());
        assertEquals(0xf, info.trapSl());
        assertEquals(0xfffff, info.trapFl());
        assertEquals(0xffff, info.trapLid());
        assertEquals(0xffff, info.trapPKey());
        assertEquals(0xff, info.trapHopLimit());
        assertEquals(0xff_ffff, info.trapQp());
        assertEquals(0xffff_ffffL, info.trapQKey());
        assertEquals("00", CHeaders.hex(buffer, ClassPortInfo.REDIRECT_QP_OFFSET, 1));
    }

    @Test
    void shouldLeaveOnlyReservedBitsSetWhenEveryFieldIsZeroedOverOnes()
    {
        buffer.setMemory(0, ClassPortInfo.LENGTH, (byte)0xff);

        info.wrap(buffer, 0).baseVersion(0).classVersion(0).capabilityMask(0).capabilityMask2(0).respTimeValue(0)
            .redirectGid(0, 0).redirectTc(0).redirectSl(0).redirectFl(0).redirectLid(0).redirectPKey(0)
            .redirectQp(0).redirectQKey(0).trapGid(0, 0).trapTc(0).trapSl(0).trapFl(0).trapLid(0).trapPKey(0)
            .trapHopLimit(0).trapQp(0).trapQKey(0);

        final StringBuilder expected = new StringBuilder("00".repeat(ClassPortInfo.LENGTH));
        expected.replace(2 * ClassPortInfo.REDIRECT_QP_OFFSET, 2 * ClassPortInfo.REDIRECT_QP_OFFSET + 2, "ff");
        assertEquals(expected.toString(), CHeaders.hex(buffer, 0, ClassPortInfo.LENGTH));
    }

    @Test
    void shouldPrintTheResponseTimeItMeans()
    {
        info.wrap(buffer, 0).clear().baseVersion(1).classVersion(2).respTimeValue(18);

        assertTrue(info.toString().startsWith("ClassPortInfo{BaseVersion=1, ClassVersion=2, CapabilityMask=0x0000, " +
            "CapabilityMask2=0x0000000, RespTimeValue=18 (1.07 s), RedirectGID=::, "), info.toString());
    }

    @Test
    void shouldRejectAShortAttribute()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> info.wrap(buffer, 0, 71));

        assertEquals("ClassPortInfo: 71 bytes present, the format needs at least 72", ex.getMessage());
    }
}

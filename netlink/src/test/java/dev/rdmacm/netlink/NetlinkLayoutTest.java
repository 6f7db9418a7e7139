package dev.rdmacm.netlink;

import dev.rdmacm.testing.CHeaders;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every offset, size and constant of the NETLINK_ROUTE flyweights (nlmsgerr, rtmsg, ifinfomsg...)
 * against the kernel's own headers, via gcc; nlmsghdr and nlattr ({@code wire}) are checked by
 * {@code wire.NetlinkFramingLayoutTest}.
 */
class NetlinkLayoutTest
{
    private static final String INCLUDES = """
        #include <linux/netlink.h>
        #include <linux/rtnetlink.h>
        #include <linux/neighbour.h>
        #include <linux/if_addr.h>
        #include <linux/if_link.h>
        #include <linux/if_arp.h>
        #include <linux/if.h>
        #include <linux/pkt_sched.h>
        """;

    @Test
    void shouldLayOutNlmsgerrAsTheKernel()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("offsetof(struct nlmsgerr, msg)", NetlinkErrorMessage.ORIGINAL_HEADER_OFFSET);
        expected.put("sizeof(struct nlmsgerr)", NetlinkErrorMessage.LENGTH);
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldLayOutRtmsgAsTheKernel()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct rtmsg)", RouteMessage.LENGTH);
        expected.put("offsetof(struct rtmsg, rtm_family)", RouteMessage.FAMILY_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_dst_len)", RouteMessage.DST_LEN_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_src_len)", RouteMessage.SRC_LEN_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_tos)", RouteMessage.TOS_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_table)", RouteMessage.TABLE_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_protocol)", RouteMessage.PROTOCOL_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_scope)", RouteMessage.SCOPE_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_type)", RouteMessage.TYPE_OFFSET);
        expected.put("offsetof(struct rtmsg, rtm_flags)", RouteMessage.FLAGS_OFFSET);
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldLayOutIfinfomsgNdmsgAndIfaddrmsgAsTheKernel()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct ifinfomsg)", LinkMessage.LENGTH);
        expected.put("offsetof(struct ifinfomsg, ifi_family)", LinkMessage.FAMILY_OFFSET);
        expected.put("offsetof(struct ifinfomsg, ifi_type)", LinkMessage.TYPE_OFFSET);
        expected.put("offsetof(struct ifinfomsg, ifi_index)", LinkMessage.INDEX_OFFSET);
        expected.put("offsetof(struct ifinfomsg, ifi_flags)", LinkMessage.FLAGS_OFFSET);
        expected.put("offsetof(struct ifinfomsg, ifi_change)", LinkMessage.CHANGE_OFFSET);
        expected.put("sizeof(struct ndmsg)", NeighbourMessage.LENGTH);
        expected.put("offsetof(struct ndmsg, ndm_family)", NeighbourMessage.FAMILY_OFFSET);
        expected.put("offsetof(struct ndmsg, ndm_ifindex)", NeighbourMessage.IFINDEX_OFFSET);
        expected.put("offsetof(struct ndmsg, ndm_state)", NeighbourMessage.STATE_OFFSET);
        expected.put("offsetof(struct ndmsg, ndm_flags)", NeighbourMessage.FLAGS_OFFSET);
        expected.put("offsetof(struct ndmsg, ndm_type)", NeighbourMessage.TYPE_OFFSET);
        expected.put("sizeof(struct ifaddrmsg)", AddressMessage.LENGTH);
        expected.put("offsetof(struct ifaddrmsg, ifa_prefixlen)", AddressMessage.PREFIX_LENGTH_OFFSET);
        expected.put("offsetof(struct ifaddrmsg, ifa_flags)", AddressMessage.FLAGS_OFFSET);
        expected.put("offsetof(struct ifaddrmsg, ifa_scope)", AddressMessage.SCOPE_OFFSET);
        expected.put("offsetof(struct ifaddrmsg, ifa_index)", AddressMessage.INDEX_OFFSET);
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldLayOutTcmsgAndTcMqprioQoptAsTheKernel()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct tcmsg)", QdiscMessage.LENGTH);
        expected.put("offsetof(struct tcmsg, tcm_family)", QdiscMessage.FAMILY_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm__pad1)", QdiscMessage.PAD1_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm__pad2)", QdiscMessage.PAD2_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm_ifindex)", QdiscMessage.IFINDEX_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm_handle)", QdiscMessage.HANDLE_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm_parent)", QdiscMessage.PARENT_OFFSET);
        expected.put("offsetof(struct tcmsg, tcm_info)", QdiscMessage.INFO_OFFSET);
        expected.put("sizeof(struct tc_mqprio_qopt)", MqprioOptions.LENGTH);
        expected.put("offsetof(struct tc_mqprio_qopt, num_tc)", MqprioOptions.NUM_TC_OFFSET);
        expected.put("offsetof(struct tc_mqprio_qopt, prio_tc_map)", MqprioOptions.PRIO_TC_MAP_OFFSET);
        expected.put("sizeof(((struct tc_mqprio_qopt *)0)->prio_tc_map)", MqprioOptions.PRIO_TC_MAP_LENGTH);
        expected.put("TC_QOPT_BITMASK + 1", MqprioOptions.PRIO_TC_MAP_LENGTH);
        expected.put("offsetof(struct tc_mqprio_qopt, hw)", MqprioOptions.HW_OFFSET);
        expected.put("offsetof(struct tc_mqprio_qopt, count)", MqprioOptions.COUNT_OFFSET);
        expected.put("offsetof(struct tc_mqprio_qopt, offset)", MqprioOptions.OFFSET_OFFSET);
        expected.put("TC_QOPT_MAX_QUEUE", MqprioOptions.MAX_QUEUE);
        expected.put("TCA_KIND", QdiscMessage.TCA_KIND);
        expected.put("TCA_OPTIONS", QdiscMessage.TCA_OPTIONS);
        expected.put("TC_H_ROOT", QdiscMessage.TC_H_ROOT);
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldUseTheKernelsConstants()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("NETLINK_ADD_MEMBERSHIP", NetlinkSocket.NETLINK_ADD_MEMBERSHIP);
        expected.put("NETLINK_CAP_ACK", NetlinkSocket.NETLINK_CAP_ACK);
        expected.put("NETLINK_EXT_ACK", NetlinkSocket.NETLINK_EXT_ACK);
        expected.put("NETLINK_GET_STRICT_CHK", NetlinkSocket.NETLINK_GET_STRICT_CHK);
        expected.put("NLMSGERR_ATTR_MSG", NetlinkErrorMessage.NLMSGERR_ATTR_MSG);
        expected.put("RTNLGRP_LINK", NetlinkSocket.RTNLGRP_LINK);
        expected.put("RTNLGRP_NEIGH", NetlinkSocket.RTNLGRP_NEIGH);
        expected.put("RTNLGRP_TC", NetlinkSocket.RTNLGRP_TC);
        expected.put("RTNLGRP_IPV4_IFADDR", NetlinkSocket.RTNLGRP_IPV4_IFADDR);
        expected.put("RTNLGRP_IPV4_ROUTE", NetlinkSocket.RTNLGRP_IPV4_ROUTE);
        expected.put("RTNLGRP_IPV4_RULE", NetlinkSocket.RTNLGRP_IPV4_RULE);
        expected.put("RTNLGRP_IPV6_IFADDR", NetlinkSocket.RTNLGRP_IPV6_IFADDR);
        expected.put("RTNLGRP_IPV6_ROUTE", NetlinkSocket.RTNLGRP_IPV6_ROUTE);
        expected.put("RTNLGRP_IPV6_RULE", NetlinkSocket.RTNLGRP_IPV6_RULE);
        expected.put("RTNLGRP_IPV4_NETCONF", NetlinkSocket.RTNLGRP_IPV4_NETCONF);
        expected.put("RTNLGRP_IPV6_NETCONF", NetlinkSocket.RTNLGRP_IPV6_NETCONF);
        expected.put("RTNLGRP_NEXTHOP", NetlinkSocket.RTNLGRP_NEXTHOP);
        expected.put("RTA_DST", RouteMessage.RTA_DST);
        expected.put("RTA_SRC", RouteMessage.RTA_SRC);
        expected.put("RTA_OIF", RouteMessage.RTA_OIF);
        expected.put("RTA_GATEWAY", RouteMessage.RTA_GATEWAY);
        expected.put("RTA_PREFSRC", RouteMessage.RTA_PREFSRC);
        expected.put("RTA_METRICS", RouteMessage.RTA_METRICS);
        expected.put("RTA_TABLE", RouteMessage.RTA_TABLE);
        expected.put("RTAX_MTU", RouteMessage.RTAX_MTU);
        expected.put("RTAX_HOPLIMIT", RouteMessage.RTAX_HOPLIMIT);
        expected.put("RTN_LOCAL", RouteMessage.RTN_LOCAL);
        expected.put("RTN_UNREACHABLE", RouteMessage.RTN_UNREACHABLE);
        expected.put("RTN_THROW", RouteMessage.RTN_THROW);
        expected.put("RTM_F_LOOKUP_TABLE", RouteMessage.RTM_F_LOOKUP_TABLE);
        expected.put("IFLA_ADDRESS", LinkMessage.IFLA_ADDRESS);
        expected.put("IFLA_BROADCAST", LinkMessage.IFLA_BROADCAST);
        expected.put("IFLA_IFNAME", LinkMessage.IFLA_IFNAME);
        expected.put("IFLA_MTU", LinkMessage.IFLA_MTU);
        expected.put("IFLA_OPERSTATE", LinkMessage.IFLA_OPERSTATE);
        expected.put("IFLA_EXT_MASK", LinkMessage.IFLA_EXT_MASK);
        expected.put("IFLA_EVENT", LinkMessage.IFLA_EVENT);
        expected.put("IFLA_NUM_TX_QUEUES", LinkMessage.IFLA_NUM_TX_QUEUES);
        expected.put("IFLA_EVENT_BONDING_FAILOVER", LinkMessage.IFLA_EVENT_BONDING_FAILOVER);
        expected.put("IFLA_LINKINFO", LinkMessage.IFLA_LINKINFO);
        expected.put("IFLA_INFO_KIND", LinkMessage.IFLA_INFO_KIND);
        expected.put("NDA_DST", NeighbourMessage.NDA_DST);
        expected.put("NDA_LLADDR", NeighbourMessage.NDA_LLADDR);
        expected.put("NUD_PERMANENT|NUD_NOARP|NUD_REACHABLE|NUD_PROBE|NUD_STALE|NUD_DELAY", NeighbourMessage.NUD_VALID);
        expected.put("NUD_FAILED", NeighbourMessage.NUD_FAILED);
        expected.put("NTF_USE", NeighbourMessage.NTF_USE);
        expected.put("IFA_ADDRESS", AddressMessage.IFA_ADDRESS);
        expected.put("IFA_LOCAL", AddressMessage.IFA_LOCAL);
        expected.put("ARPHRD_INFINIBAND", LinkMessage.ARPHRD_INFINIBAND);
        expected.put("ARPHRD_LOOPBACK", LinkMessage.ARPHRD_LOOPBACK);
        expected.put("IFF_NOARP", LinkMessage.IFF_NOARP);
        expected.put("IFF_LOOPBACK", LinkMessage.IFF_LOOPBACK);
        CHeaders.assertValues(INCLUDES, expected);
    }
}

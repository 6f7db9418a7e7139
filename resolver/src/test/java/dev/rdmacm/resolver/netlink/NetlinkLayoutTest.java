package dev.rdmacm.resolver.netlink;

import dev.rdmacm.testing.CProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every offset, size and constant of the netlink flyweights against the kernel's own headers, via gcc. */
class NetlinkLayoutTest
{
    private static final String C_SOURCE = """
        #include <stdio.h>
        #include <stddef.h>
        #include <linux/netlink.h>
        #include <linux/rtnetlink.h>
        #include <linux/neighbour.h>
        #include <linux/if_addr.h>
        #include <linux/if_link.h>
        #include <linux/if_arp.h>
        #include <linux/if.h>
        #define P(name, value) printf("%s=%ld\\n", name, (long)(value))
        int main(void) {
            P("nlmsghdr.size", sizeof(struct nlmsghdr));
            P("nlmsghdr.len", offsetof(struct nlmsghdr, nlmsg_len));
            P("nlmsghdr.type", offsetof(struct nlmsghdr, nlmsg_type));
            P("nlmsghdr.flags", offsetof(struct nlmsghdr, nlmsg_flags));
            P("nlmsghdr.seq", offsetof(struct nlmsghdr, nlmsg_seq));
            P("nlmsghdr.pid", offsetof(struct nlmsghdr, nlmsg_pid));
            P("rtmsg.size", sizeof(struct rtmsg));
            P("rtmsg.family", offsetof(struct rtmsg, rtm_family));
            P("rtmsg.dst_len", offsetof(struct rtmsg, rtm_dst_len));
            P("rtmsg.src_len", offsetof(struct rtmsg, rtm_src_len));
            P("rtmsg.tos", offsetof(struct rtmsg, rtm_tos));
            P("rtmsg.table", offsetof(struct rtmsg, rtm_table));
            P("rtmsg.protocol", offsetof(struct rtmsg, rtm_protocol));
            P("rtmsg.scope", offsetof(struct rtmsg, rtm_scope));
            P("rtmsg.type", offsetof(struct rtmsg, rtm_type));
            P("rtmsg.flags", offsetof(struct rtmsg, rtm_flags));
            P("ifinfomsg.size", sizeof(struct ifinfomsg));
            P("ifinfomsg.family", offsetof(struct ifinfomsg, ifi_family));
            P("ifinfomsg.type", offsetof(struct ifinfomsg, ifi_type));
            P("ifinfomsg.index", offsetof(struct ifinfomsg, ifi_index));
            P("ifinfomsg.flags", offsetof(struct ifinfomsg, ifi_flags));
            P("ifinfomsg.change", offsetof(struct ifinfomsg, ifi_change));
            P("ndmsg.size", sizeof(struct ndmsg));
            P("ndmsg.family", offsetof(struct ndmsg, ndm_family));
            P("ndmsg.ifindex", offsetof(struct ndmsg, ndm_ifindex));
            P("ndmsg.state", offsetof(struct ndmsg, ndm_state));
            P("ndmsg.flags", offsetof(struct ndmsg, ndm_flags));
            P("ndmsg.type", offsetof(struct ndmsg, ndm_type));
            P("ifaddrmsg.size", sizeof(struct ifaddrmsg));
            P("ifaddrmsg.prefixlen", offsetof(struct ifaddrmsg, ifa_prefixlen));
            P("ifaddrmsg.flags", offsetof(struct ifaddrmsg, ifa_flags));
            P("ifaddrmsg.scope", offsetof(struct ifaddrmsg, ifa_scope));
            P("ifaddrmsg.index", offsetof(struct ifaddrmsg, ifa_index));
            P("rtattr.size", sizeof(struct rtattr));
            P("rtattr.type", offsetof(struct rtattr, rta_type));
            P("nlmsgerr.msg", offsetof(struct nlmsgerr, msg));
            P("RTM_NEWLINK", RTM_NEWLINK); P("RTM_DELLINK", RTM_DELLINK); P("RTM_GETLINK", RTM_GETLINK);
            P("RTM_NEWADDR", RTM_NEWADDR); P("RTM_GETADDR", RTM_GETADDR); P("RTM_NEWROUTE", RTM_NEWROUTE);
            P("RTM_GETROUTE", RTM_GETROUTE); P("RTM_NEWNEIGH", RTM_NEWNEIGH); P("RTM_GETNEIGH", RTM_GETNEIGH);
            P("NLMSG_ERROR", NLMSG_ERROR); P("NLMSG_DONE", NLMSG_DONE);
            P("NLM_F_REQUEST", NLM_F_REQUEST); P("NLM_F_MULTI", NLM_F_MULTI); P("NLM_F_ACK", NLM_F_ACK);
            P("NLM_F_DUMP", NLM_F_DUMP); P("NLM_F_CREATE", NLM_F_CREATE); P("NLM_F_CAPPED", NLM_F_CAPPED);
            P("NLM_F_ACK_TLVS", NLM_F_ACK_TLVS);
            P("NETLINK_ADD_MEMBERSHIP", NETLINK_ADD_MEMBERSHIP); P("NETLINK_CAP_ACK", NETLINK_CAP_ACK);
            P("NETLINK_EXT_ACK", NETLINK_EXT_ACK); P("NETLINK_GET_STRICT_CHK", NETLINK_GET_STRICT_CHK);
            P("NLMSGERR_ATTR_MSG", NLMSGERR_ATTR_MSG);
            P("RTNLGRP_LINK", RTNLGRP_LINK); P("RTNLGRP_NEIGH", RTNLGRP_NEIGH);
            P("RTA_DST", RTA_DST); P("RTA_SRC", RTA_SRC); P("RTA_OIF", RTA_OIF); P("RTA_GATEWAY", RTA_GATEWAY);
            P("RTA_PREFSRC", RTA_PREFSRC); P("RTA_METRICS", RTA_METRICS); P("RTA_TABLE", RTA_TABLE);
            P("RTAX_MTU", RTAX_MTU); P("RTAX_HOPLIMIT", RTAX_HOPLIMIT);
            P("RTN_LOCAL", RTN_LOCAL); P("RTN_UNREACHABLE", RTN_UNREACHABLE); P("RTN_THROW", RTN_THROW);
            P("RTM_F_LOOKUP_TABLE", RTM_F_LOOKUP_TABLE);
            P("IFLA_ADDRESS", IFLA_ADDRESS); P("IFLA_BROADCAST", IFLA_BROADCAST); P("IFLA_IFNAME", IFLA_IFNAME);
            P("IFLA_MTU", IFLA_MTU); P("IFLA_OPERSTATE", IFLA_OPERSTATE); P("IFLA_EXT_MASK", IFLA_EXT_MASK);
            P("NDA_DST", NDA_DST); P("NDA_LLADDR", NDA_LLADDR);
            P("NUD_VALID", NUD_PERMANENT|NUD_NOARP|NUD_REACHABLE|NUD_PROBE|NUD_STALE|NUD_DELAY);
            P("NUD_FAILED", NUD_FAILED); P("NTF_USE", NTF_USE);
            P("IFA_ADDRESS", IFA_ADDRESS); P("IFA_LOCAL", IFA_LOCAL);
            P("ARPHRD_INFINIBAND", ARPHRD_INFINIBAND); P("ARPHRD_LOOPBACK", ARPHRD_LOOPBACK);
            P("IFF_NOARP", IFF_NOARP); P("IFF_LOOPBACK", IFF_LOOPBACK);
            return 0;
        }
        """;

    private static final Map<String, Long> C = new HashMap<>();

    @BeforeAll
    static void compile()
    {
        CProgram.compileAndRun(C_SOURCE).lines().forEach(line ->
        {
            final String[] kv = line.split("=");
            C.put(kv[0], Long.parseLong(kv[1]));
        });
    }

    private static void check(final String name, final long javaValue)
    {
        assertEquals(C.get(name), javaValue, name);
    }

    @Test
    void shouldLayOutNlmsghdrAsTheKernel()
    {
        check("nlmsghdr.size", NetlinkMessageHeader.LENGTH);
        check("nlmsghdr.len", NetlinkMessageHeader.LENGTH_OFFSET);
        check("nlmsghdr.type", NetlinkMessageHeader.TYPE_OFFSET);
        check("nlmsghdr.flags", NetlinkMessageHeader.FLAGS_OFFSET);
        check("nlmsghdr.seq", NetlinkMessageHeader.SEQUENCE_OFFSET);
        check("nlmsghdr.pid", NetlinkMessageHeader.PORT_ID_OFFSET);
        check("nlmsgerr.msg", NetlinkErrorMessage.ORIGINAL_HEADER_OFFSET);
        check("rtattr.size", RouteAttribute.HEADER_LENGTH);
        check("rtattr.type", RouteAttribute.TYPE_OFFSET);
    }

    @Test
    void shouldLayOutRtmsgAsTheKernel()
    {
        check("rtmsg.size", RouteMessage.LENGTH);
        check("rtmsg.family", RouteMessage.FAMILY_OFFSET);
        check("rtmsg.dst_len", RouteMessage.DST_LEN_OFFSET);
        check("rtmsg.src_len", RouteMessage.SRC_LEN_OFFSET);
        check("rtmsg.tos", RouteMessage.TOS_OFFSET);
        check("rtmsg.table", RouteMessage.TABLE_OFFSET);
        check("rtmsg.protocol", RouteMessage.PROTOCOL_OFFSET);
        check("rtmsg.scope", RouteMessage.SCOPE_OFFSET);
        check("rtmsg.type", RouteMessage.TYPE_OFFSET);
        check("rtmsg.flags", RouteMessage.FLAGS_OFFSET);
    }

    @Test
    void shouldLayOutIfinfomsgNdmsgAndIfaddrmsgAsTheKernel()
    {
        check("ifinfomsg.size", LinkMessage.LENGTH);
        check("ifinfomsg.family", LinkMessage.FAMILY_OFFSET);
        check("ifinfomsg.type", LinkMessage.TYPE_OFFSET);
        check("ifinfomsg.index", LinkMessage.INDEX_OFFSET);
        check("ifinfomsg.flags", LinkMessage.FLAGS_OFFSET);
        check("ifinfomsg.change", LinkMessage.CHANGE_OFFSET);
        check("ndmsg.size", NeighbourMessage.LENGTH);
        check("ndmsg.family", NeighbourMessage.FAMILY_OFFSET);
        check("ndmsg.ifindex", NeighbourMessage.IFINDEX_OFFSET);
        check("ndmsg.state", NeighbourMessage.STATE_OFFSET);
        check("ndmsg.flags", NeighbourMessage.FLAGS_OFFSET);
        check("ndmsg.type", NeighbourMessage.TYPE_OFFSET);
        check("ifaddrmsg.size", AddressMessage.LENGTH);
        check("ifaddrmsg.prefixlen", AddressMessage.PREFIX_LENGTH_OFFSET);
        check("ifaddrmsg.flags", AddressMessage.FLAGS_OFFSET);
        check("ifaddrmsg.scope", AddressMessage.SCOPE_OFFSET);
        check("ifaddrmsg.index", AddressMessage.INDEX_OFFSET);
    }

    @Test
    void shouldUseTheKernelsConstants()
    {
        check("RTM_NEWLINK", NetlinkMessageHeader.RTM_NEWLINK);
        check("RTM_DELLINK", NetlinkMessageHeader.RTM_DELLINK);
        check("RTM_GETLINK", NetlinkMessageHeader.RTM_GETLINK);
        check("RTM_NEWADDR", NetlinkMessageHeader.RTM_NEWADDR);
        check("RTM_GETADDR", NetlinkMessageHeader.RTM_GETADDR);
        check("RTM_NEWROUTE", NetlinkMessageHeader.RTM_NEWROUTE);
        check("RTM_GETROUTE", NetlinkMessageHeader.RTM_GETROUTE);
        check("RTM_NEWNEIGH", NetlinkMessageHeader.RTM_NEWNEIGH);
        check("RTM_GETNEIGH", NetlinkMessageHeader.RTM_GETNEIGH);
        check("NLMSG_ERROR", NetlinkMessageHeader.NLMSG_ERROR);
        check("NLMSG_DONE", NetlinkMessageHeader.NLMSG_DONE);
        check("NLM_F_REQUEST", NetlinkMessageHeader.NLM_F_REQUEST);
        check("NLM_F_MULTI", NetlinkMessageHeader.NLM_F_MULTI);
        check("NLM_F_ACK", NetlinkMessageHeader.NLM_F_ACK);
        check("NLM_F_DUMP", NetlinkMessageHeader.NLM_F_DUMP);
        check("NLM_F_CREATE", NetlinkMessageHeader.NLM_F_CREATE);
        check("NLM_F_CAPPED", NetlinkMessageHeader.NLM_F_CAPPED);
        check("NLM_F_ACK_TLVS", NetlinkMessageHeader.NLM_F_ACK_TLVS);
        check("NETLINK_ADD_MEMBERSHIP", NetlinkSocket.NETLINK_ADD_MEMBERSHIP);
        check("NETLINK_CAP_ACK", NetlinkSocket.NETLINK_CAP_ACK);
        check("NETLINK_EXT_ACK", NetlinkSocket.NETLINK_EXT_ACK);
        check("NETLINK_GET_STRICT_CHK", NetlinkSocket.NETLINK_GET_STRICT_CHK);
        check("NLMSGERR_ATTR_MSG", NetlinkErrorMessage.NLMSGERR_ATTR_MSG);
        check("RTNLGRP_LINK", NetlinkSocket.RTNLGRP_LINK);
        check("RTNLGRP_NEIGH", NetlinkSocket.RTNLGRP_NEIGH);
        check("RTA_DST", RouteMessage.RTA_DST);
        check("RTA_SRC", RouteMessage.RTA_SRC);
        check("RTA_OIF", RouteMessage.RTA_OIF);
        check("RTA_GATEWAY", RouteMessage.RTA_GATEWAY);
        check("RTA_PREFSRC", RouteMessage.RTA_PREFSRC);
        check("RTA_METRICS", RouteMessage.RTA_METRICS);
        check("RTA_TABLE", RouteMessage.RTA_TABLE);
        check("RTAX_MTU", RouteMessage.RTAX_MTU);
        check("RTAX_HOPLIMIT", RouteMessage.RTAX_HOPLIMIT);
        check("RTN_LOCAL", RouteMessage.RTN_LOCAL);
        check("RTN_UNREACHABLE", RouteMessage.RTN_UNREACHABLE);
        check("RTN_THROW", RouteMessage.RTN_THROW);
        check("RTM_F_LOOKUP_TABLE", RouteMessage.RTM_F_LOOKUP_TABLE);
        check("IFLA_ADDRESS", LinkMessage.IFLA_ADDRESS);
        check("IFLA_BROADCAST", LinkMessage.IFLA_BROADCAST);
        check("IFLA_IFNAME", LinkMessage.IFLA_IFNAME);
        check("IFLA_MTU", LinkMessage.IFLA_MTU);
        check("IFLA_OPERSTATE", LinkMessage.IFLA_OPERSTATE);
        check("IFLA_EXT_MASK", LinkMessage.IFLA_EXT_MASK);
        check("NDA_DST", NeighbourMessage.NDA_DST);
        check("NDA_LLADDR", NeighbourMessage.NDA_LLADDR);
        check("NUD_VALID", NeighbourMessage.NUD_VALID);
        check("NUD_FAILED", NeighbourMessage.NUD_FAILED);
        check("NTF_USE", NeighbourMessage.NTF_USE);
        check("IFA_ADDRESS", AddressMessage.IFA_ADDRESS);
        check("IFA_LOCAL", AddressMessage.IFA_LOCAL);
        check("ARPHRD_INFINIBAND", LinkMessage.ARPHRD_INFINIBAND);
        check("ARPHRD_LOOPBACK", LinkMessage.ARPHRD_LOOPBACK);
        check("IFF_NOARP", LinkMessage.IFF_NOARP);
        check("IFF_LOOPBACK", LinkMessage.IFF_LOOPBACK);
    }
}

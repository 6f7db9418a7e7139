package dev.rdmacm.netlink.wire;

import dev.rdmacm.testing.CHeaders;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

/** The netlink framing flyweights against the kernel's own headers, via gcc. */
class NetlinkFramingLayoutTest
{
    private static final String INCLUDES = """
        #include <linux/netlink.h>
        #include <linux/rtnetlink.h>
        """;

    @Test
    void shouldLayOutNlmsghdrAndNlattrAsTheKernel()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("sizeof(struct nlmsghdr)", NetlinkMessageHeader.LENGTH);
        expected.put("NLMSG_HDRLEN", NetlinkMessageHeader.LENGTH);
        expected.put("offsetof(struct nlmsghdr, nlmsg_len)", NetlinkMessageHeader.LENGTH_OFFSET);
        expected.put("offsetof(struct nlmsghdr, nlmsg_type)", NetlinkMessageHeader.TYPE_OFFSET);
        expected.put("offsetof(struct nlmsghdr, nlmsg_flags)", NetlinkMessageHeader.FLAGS_OFFSET);
        expected.put("offsetof(struct nlmsghdr, nlmsg_seq)", NetlinkMessageHeader.SEQUENCE_OFFSET);
        expected.put("offsetof(struct nlmsghdr, nlmsg_pid)", NetlinkMessageHeader.PORT_ID_OFFSET);
        expected.put("sizeof(struct rtattr)", NetlinkAttribute.HEADER_LENGTH);
        expected.put("offsetof(struct rtattr, rta_type)", NetlinkAttribute.TYPE_OFFSET);
        expected.put("sizeof(struct nlattr)", NetlinkAttribute.HEADER_LENGTH);
        expected.put("NLA_HDRLEN", NetlinkAttribute.HEADER_LENGTH);
        expected.put("offsetof(struct nlattr, nla_len)", NetlinkAttribute.LENGTH_OFFSET);
        expected.put("offsetof(struct nlattr, nla_type)", NetlinkAttribute.TYPE_OFFSET);
        expected.put("NLA_F_NESTED", NetlinkAttribute.NLA_F_NESTED);
        expected.put("NLA_F_NET_BYTEORDER", NetlinkAttribute.NLA_F_NET_BYTEORDER);
        expected.put("NLA_TYPE_MASK & 0xffff", NetlinkAttribute.TYPE_MASK);
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldAlignAsNlmsgAlignAndNlaAlign()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        for (final int length : new int[] {0, 1, 3, 4, 5, 66, 76, 77})
        {
            expected.put("NLMSG_ALIGN(" + length + ")", NetlinkMessageHeader.align(length));
            expected.put("NLA_ALIGN(" + length + ")", NetlinkMessageHeader.align(length));
            expected.put("RTA_ALIGN(" + length + ")", NetlinkMessageHeader.align(length));
        }
        expected.put("NLA_ALIGN(NLA_HDRLEN + 13)", NetlinkAttribute.totalLength(13));
        CHeaders.assertValues(INCLUDES, expected);
    }

    @Test
    void shouldUseTheKernelsConstants()
    {
        final Map<String, Number> expected = new LinkedHashMap<>();
        expected.put("RTM_NEWLINK", NetlinkMessageHeader.RTM_NEWLINK);
        expected.put("RTM_NEWQDISC", NetlinkMessageHeader.RTM_NEWQDISC);
        expected.put("RTM_DELQDISC", NetlinkMessageHeader.RTM_DELQDISC);
        expected.put("RTM_GETQDISC", NetlinkMessageHeader.RTM_GETQDISC);
        expected.put("RTM_DELLINK", NetlinkMessageHeader.RTM_DELLINK);
        expected.put("RTM_GETLINK", NetlinkMessageHeader.RTM_GETLINK);
        expected.put("RTM_NEWADDR", NetlinkMessageHeader.RTM_NEWADDR);
        expected.put("RTM_GETADDR", NetlinkMessageHeader.RTM_GETADDR);
        expected.put("RTM_NEWROUTE", NetlinkMessageHeader.RTM_NEWROUTE);
        expected.put("RTM_GETROUTE", NetlinkMessageHeader.RTM_GETROUTE);
        expected.put("RTM_NEWNEIGH", NetlinkMessageHeader.RTM_NEWNEIGH);
        expected.put("RTM_GETNEIGH", NetlinkMessageHeader.RTM_GETNEIGH);
        expected.put("NLMSG_ERROR", NetlinkMessageHeader.NLMSG_ERROR);
        expected.put("NLMSG_DONE", NetlinkMessageHeader.NLMSG_DONE);
        expected.put("NLM_F_REQUEST", NetlinkMessageHeader.NLM_F_REQUEST);
        expected.put("NLM_F_MULTI", NetlinkMessageHeader.NLM_F_MULTI);
        expected.put("NLM_F_ACK", NetlinkMessageHeader.NLM_F_ACK);
        expected.put("NLM_F_DUMP", NetlinkMessageHeader.NLM_F_DUMP);
        expected.put("NLM_F_CREATE", NetlinkMessageHeader.NLM_F_CREATE);
        expected.put("NLM_F_CAPPED", NetlinkMessageHeader.NLM_F_CAPPED);
        expected.put("NLM_F_ACK_TLVS", NetlinkMessageHeader.NLM_F_ACK_TLVS);
        CHeaders.assertValues(INCLUDES, expected);
    }
}

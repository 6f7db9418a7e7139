package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.sa.Selector;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The JSON of an entry carrying a route and a CM header, which only an ACM answer produces. */
class GetAddrInfoJsonTest
{
    @Test
    void shouldWriteEveryPathRecordFieldWithTheWireCodes()
    {
        final byte[] route = new byte[IbvPathData.LENGTH];
        final IbvPathData data = new IbvPathData().wrap(new UnsafeBuffer(route), 0).flags(0x2b);
        data.path().serviceId(0x0106_1d2fL).dgid(Gid.parse("fe80::3")).sgid(Gid.parse("fe80::2")).dlid(3).slid(2)
            .flowLabel(0x123).hopLimit(64).tClass(8).reversible(true).numbPath(1).pKey(0xffff).qosClass(0).sl(5)
            .mtuSelector(Selector.EXACTLY).mtu(4).rateSelector(Selector.EXACTLY).rate(6).packetLifeTimeSelector(Selector.EXACTLY).packetLifeTime(18).preference(0);
        final IbSockaddr dst = new IbSockaddr(PKey.of(0xffff), 0x123, Gid.parse("fe80::3"), 0x0106_1d2fL, -1L, 0);
        final RdmaAddrInfo entry = new RdmaAddrInfo(0, AddressFamily.AF_IB, 2, 0x106, null, dst, null, null, route,
            new byte[] {0, 0x40, 0, 0});

        final String json = GetAddrInfoJson.toJson(new AddrInfoResult.Success(List.of(entry)));

        assertEquals("{\"entries\":[{\"ai_flags\":0,\"ai_flags_names\":[],\"ai_family\":27,\"ai_family_name\":\"AF_IB\"," +
            "\"ai_qp_type\":2,\"ai_qp_type_name\":\"IBV_QPT_RC\",\"ai_port_space\":262,\"ai_port_space_name\":\"RDMA_PS_TCP\"," +
            "\"ai_src_addr\":null,\"ai_dst_addr\":{\"gid\":\"fe80::3\",\"pkey\":\"0xffff\",\"sid\":\"0x0000000001061d2f\"," +
            "\"sid_mask\":\"0xffffffffffffffff\",\"flowinfo\":291,\"scope_id\":\"0\"},\"ai_src_canonname\":null," +
            "\"ai_dst_canonname\":null,\"ai_route\":[{\"flags\":43,\"flags_names\":[\"GMP\",\"PRIMARY\",\"OUTBOUND\",\"INBOUND_REVERSE\"],\"service_id\":\"0x0000000001061d2f\",\"dgid\":\"fe80::3\"," +
            "\"sgid\":\"fe80::2\",\"dlid\":3,\"slid\":2,\"raw_traffic\":false,\"flow_label\":291,\"hop_limit\":64,\"tclass\":8," +
            "\"reversible\":true,\"numb_path\":1,\"pkey\":\"0xffff\",\"qos_class\":0,\"sl\":5,\"mtu_selector\":2,\"mtu\":4," +
            "\"rate_selector\":2,\"rate\":6,\"packet_life_time_selector\":2,\"packet_life_time\":18,\"preference\":0}]," +
            "\"ai_connect\":\"00400000\"}]}", json);
    }
}

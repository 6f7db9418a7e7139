package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.resolver.spi.KernelProfile;
import dev.rdmacm.sa.path.PathRecordValue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoceRouteSynthesizerTest
{
    private static final Gid SGID = Gid.parse("::ffff:10.1.0.1");
    private static final Gid DGID = Gid.parse("::ffff:10.1.0.2");

    /** A destination MAC whose bytes 0-3 show up in the DLID, SLID and RawTraffic bit. */
    private static final byte[] MAC = {(byte)0x52, (byte)0x54, (byte)0x00, (byte)0x13, (byte)0x9a, (byte)0xbc};

    private static RoceRouteInput.Builder builder()
    {
        return RoceRouteInput.builder().gids(SGID, DGID).ports(1, 2).destinationMac(MAC);
    }

    private static RoceRouteInput input(final int mtu, final Integer tos, final Integer ackTimeout, final boolean v2)
    {
        return builder().ports(40000, 7471).netdevMtu(mtu).idTos(tos).ackTimeout(ackTimeout).portSupportsRoceV2(v2)
            .build();
    }

    private static PathRecordValue synthesize(final RoceRouteInput input) throws RouteException
    {
        return RoceRouteSynthesizer.path(input).record();
    }

    @Test
    void shouldBuildThePathFieldByFieldAsCmaResolveIboeRoute() throws RouteException
    {
        final PathRecordValue path = synthesize(input(1500, null, null, true));

        assertEquals(SGID, path.sgid());
        assertEquals(DGID, path.dgid());
        assertEquals(0x0152, path.dlid().value(), "roce.route_resolved (1) and dmac[0] under ib.dlid");
        assertEquals(0x5400, path.slid().value(), "dmac[1] and dmac[2] under ib.slid");
        assertTrue(path.rawTraffic(), "dmac[3] (0x13) under ib.raw_traffic, packed as one bit");
        assertEquals(64, path.hopLimit());
        assertTrue(path.reversible());
        assertEquals(0xffff, path.pKey().value());
        assertEquals(Selector.EXACTLY.code(), path.mtuSelector());
        assertEquals(MtuCode.MTU_1024.code(), path.mtu());
        assertEquals(Selector.EXACTLY.code(), path.rateSelector());
        assertEquals(RoceRouteSynthesizer.RATE_PORT_CURRENT, path.rate());
        assertEquals(Selector.EXACTLY.code(), path.packetLifeTimeSelector());
        assertEquals(18, path.packetLifeTime(), "CMA_IBOE_PACKET_LIFETIME of 6.1");
        assertEquals(0, path.tClass());
        assertEquals(0, path.sl());
        assertEquals((40000 * 31 + 7471) & 0xfffff, path.flowLabel());
    }

    @Test
    void shouldMarkThePathAsUcmaQueryPathDoes() throws RouteException
    {
        assertEquals(0x2bL, RoceRouteSynthesizer.path(input(1500, null, null, true)).flags());
    }

    @Test
    void shouldSubtractNinetySixBytesOfHeadersFromTheNetdevMtu()
    {
        assertEquals(MtuCode.MTU_4096.code(), RoceRouteSynthesizer.iboeMtu(4096 + 96));
        assertEquals(MtuCode.MTU_2048.code(), RoceRouteSynthesizer.iboeMtu(4096 + 95));
        assertEquals(MtuCode.MTU_4096.code(), RoceRouteSynthesizer.iboeMtu(9000));
        assertEquals(MtuCode.MTU_1024.code(), RoceRouteSynthesizer.iboeMtu(1500));
        assertEquals(MtuCode.MTU_256.code(), RoceRouteSynthesizer.iboeMtu(352));
        assertEquals(0, RoceRouteSynthesizer.iboeMtu(351));
    }

    @Test
    void shouldFailWithEinvalWhenNoIbMtuFits()
    {
        final RouteException ex = assertThrows(RouteException.class, () -> synthesize(input(351, null, null, true)));

        assertEquals(Errno.EINVAL, ex.errno());
    }

    @Test
    void shouldMapTheTosToAPriorityAsRtTos2Priority()
    {
        assertEquals(0, RoceRouteSynthesizer.rtTos2Priority(0x00));
        assertEquals(2, RoceRouteSynthesizer.rtTos2Priority(0x08)); // IPTOS_THROUGHPUT: bulk
        assertEquals(6, RoceRouteSynthesizer.rtTos2Priority(0x10)); // IPTOS_LOWDELAY: interactive
        assertEquals(4, RoceRouteSynthesizer.rtTos2Priority(0x18)); // interactive bulk
        assertEquals(4, RoceRouteSynthesizer.rtTos2Priority(0xb8)); // EF: only bits 1-4 (1100) count
        assertEquals(6, RoceRouteSynthesizer.rtTos2Priority(0x12));
    }

    @Test
    void shouldTakeTheSlFromTheNetdevsPriorityMap() throws RouteException
    {
        final RoceRouteInput mapped = builder().idTos(0x10).priorityToTrafficClass(priority -> priority == 6 ? 3 : 0)
            .build();

        final PathRecordValue path = synthesize(mapped);

        assertEquals(3, path.sl());
        assertEquals(0x10, path.tClass());
    }

    @Test
    void shouldUseThePortsDefaultTosWhenTheIdHasNone() throws RouteException
    {
        final RoceRouteInput input = builder().defaultRoceTos(0x20).build();

        assertEquals(0x20, synthesize(input).tClass());
    }

    @Test
    void shouldDerivePacketLifetimeFromANonZeroAckTimeout() throws RouteException
    {
        assertEquals(13, synthesize(input(1500, null, 14, true)).packetLifeTime());
        assertEquals(18, synthesize(input(1500, null, 0, true)).packetLifeTime());
    }

    @Test
    void shouldUseMainlinesPacketLifetimeUnderTheMainlineProfile() throws RouteException
    {
        assertEquals(16, synthesize(builder().profile(KernelProfile.MAINLINE).build()).packetLifeTime());
    }

    @Test
    void shouldHandTheApplicationTheFlowLabelWithTheRawTrafficBitAsUcmaConvertPathDoes() throws RouteException
    {
        final RoutePath path = RoceRouteSynthesizer.path(input(1500, null, null, true));

        assertEquals(0x800000 | ((40000 * 31 + 7471) & 0xfffff), path.librdmacmFlowLabel());
        assertEquals(43, path.librdmacmPreference());
        assertEquals(0x0152, path.record().dlid().value());
    }

    @Test
    void shouldLeaveTheFlowLabelZeroOnAPortWithoutRoceV2() throws RouteException
    {
        assertEquals(0, synthesize(input(1500, null, null, false)).flowLabel());
    }

    @Test
    void shouldPreferTheIpv6SourceFlowLabel()
    {
        assertEquals(0x12345, RoceRouteSynthesizer.flowLabel(true, 0x0ab12345, 1, 2));
        assertEquals(33, RoceRouteSynthesizer.flowLabel(true, 0x0ab00000, 1, 2));
        assertEquals(33, RoceRouteSynthesizer.flowLabel(false, 0x12345, 1, 2));
        assertEquals((65535 * 31 + 65535) & 0xfffff, RoceRouteSynthesizer.flowLabel(false, 0, 65535, 65535));
    }

    @Test
    void shouldUseHopLimitOneForAnIbDestination() throws RouteException
    {
        final RoceRouteInput input = builder().ibDestination(true).build();

        assertEquals(1, synthesize(input).hopLimit());
    }

    @Test
    void shouldCutEveryValueToItsFieldAsTheKernelsPackedRecordReadsBack() throws RouteException
    {
        final RoceRouteInput wide = builder().hopLimit(0x1ff).idTos(0x1b8).ackTimeout(0x45)
            .priorityToTrafficClass(priority -> 0x13).ipv6Source(0x7abcdef).build();

        final RoutePath path = RoceRouteSynthesizer.path(wide);

        assertEquals(path, RoutePath.fromPathData(path.toPathData()), "the path is what its ibv_path_data reads back as");
        assertEquals(0xff, path.record().hopLimit());
        assertEquals(0xb8, path.record().tClass());
        assertEquals(0x3, path.record().sl());
        assertEquals(0x04, path.record().packetLifeTime());
        assertEquals(0xbcdef, path.record().flowLabel());
    }

    @Test
    void shouldReadBackFromItsPathDataUnchangedForEveryMtuTosAndTimeout() throws RouteException
    {
        for (final int mtu : new int[] {352, 1500, 2200, 4200, 9000})
        {
            for (final Integer tos : new Integer[] {null, 0, 0x10, 0xb8, 0xff})
            {
                for (final Integer ackTimeout : new Integer[] {null, 0, 1, 14, 31, 64})
                {
                    final RoutePath path = RoceRouteSynthesizer.path(input(mtu, tos, ackTimeout, ackTimeout == null));

                    assertEquals(path, RoutePath.fromPathData(path.toPathData()), "mtu " + mtu + " tos " + tos +
                        " ack timeout " + ackTimeout);
                }
            }
        }
    }
}

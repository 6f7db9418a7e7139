package dev.rdmacm.sa.transport.ibsim;

import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadTransportException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbsimTransportTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void shouldReadLidPortGuidAndSmLidOfEveryHca()
    {
        for (final FabricPort expected : fabric().hcaPorts())
        {
            try (IbsimTransport transport = IbsimTransport.attach(fabric().host(), fabric().ctlPort(), expected.node(), ATTACH_TIMEOUT))
            {
                assertEquals(expected.lid(), transport.localPort().lid(), expected.node());
                assertEquals(expected.portGuid(), transport.localPort().portGuid(), expected.node());
                assertEquals(expected.gid(), transport.localPort().gid(), expected.node());
                assertEquals(fabric().smLid(), transport.localPort().smLid(), expected.node());
            }
        }
    }

    @Test
    void shouldNameTheNodeWhenIbsimRefusesAnUnknownNode()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> IbsimTransport.attach(fabric().host(), fabric().ctlPort(), "NoSuchHca", ATTACH_TIMEOUT));
        assertTrue(ex.getMessage().contains("'NoSuchHca'"), ex.getMessage());
    }

    @Test
    void shouldSayNoAnswerWhenNothingListensOnTheCtlPort()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> IbsimTransport.attach(fabric().host(), 1, "Hca2", Duration.ofMillis(200)));
        assertTrue(ex.getMessage().contains("ibsim at 127.0.0.1:1"), ex.getMessage());
    }

    @Test
    void shouldExchangeAMadWithTheSaAndKeepTheLow48BitsOfTheTid() throws Exception
    {
        try (IbsimTransport transport = IbsimTransport.attach(fabric().host(), fabric().ctlPort(), "Hca3", ATTACH_TIMEOUT))
        {
            final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            final long tid = 0x0000_1234_5678_9abcL;
            new MadHeader().wrap(mad, 0).baseVersion(MadHeader.BASE_VERSION).mgmtClass(ManagementClass.SUBN_ADM).classVersion(SaMad.CLASS_VERSION)
                .method(MadMethod.GET)
                .transactionId(tid).attributeId(SaAttribute.CLASS_PORT_INFO);
            assertTrue(transport.send(MadAddress.gsi(transport.localPort().smLid(), 0, 0), mad, 0, MadHeader.MAD_SIZE));

            final AtomicReference<String> seen = new AtomicReference<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (seen.get() == null && System.nanoTime() < deadline)
            {
                transport.poll((source, buffer, offset, length) ->
                {
                    final MadHeader header = new MadHeader().wrap(buffer, offset, length);
                    seen.set(String.format("lid=%d qp=%d method=0x%02x tid48=0x%012x top=%d status=0x%04x",
                        source.lid(), source.qp(), header.method(), header.transactionId() & 0xffff_ffff_ffffL,
                        header.transactionId() >>> 48, header.status()));
                }, 1);
            }
            assertNotNull(seen.get(), "no ClassPortInfo response from the SA");
            assertEquals(String.format("lid=%d qp=1 method=0x81 tid48=0x%012x top=%d status=0x0000",
                fabric().smLid(), tid, transport.clientIndex()), seen.get());
        }
    }

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }
}

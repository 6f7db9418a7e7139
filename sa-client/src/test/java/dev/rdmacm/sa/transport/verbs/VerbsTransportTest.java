package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.verbs.Verbs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Without an RDMA device (this machine has none) the verbs transport says why it cannot start. */
class VerbsTransportTest
{
    @Test
    void shouldSayWhyThereIsNoDeviceToSendMadsFrom()
    {
        Assumptions.assumeTrue(Verbs.listDevices().devices().isEmpty(), "an RDMA device exists: this test is for machines without one");
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> FabricSpec.parse("verbs").open(Duration.ofSeconds(1)));
        assertTrue(ex.getMessage().startsWith("no verbs device to send MADs from: "), ex.getMessage());
    }

    @Test
    void shouldNameTheMissingDevice()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> FabricSpec.parse("verbs:nosuchdev0:1").open(Duration.ofSeconds(1)));
        assertTrue(ex.getMessage().startsWith("verbs device nosuchdev0: "), ex.getMessage());
    }
}

package dev.rdmacm.cm;

import dev.rdmacm.verbs.AddressVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class UdParametersTest
{
    private static final AddressVector AH = new AddressVector(1, 5, 0, 0, 3, Optional.empty());

    @Test
    void shouldNotChangeWhenThePrivateDataItHandedOutChanges()
    {
        final UdParameters parameters = new UdParameters(new byte[] {1, 2, 3}, AH, 0x11, IdConnection.RDMA_UDP_QKEY);

        parameters.privateData()[0] = 9;

        assertArrayEquals(new byte[] {1, 2, 3}, parameters.privateData());
    }

    @Test
    void shouldEqualParametersOfTheSamePrivateData()
    {
        assertEquals(new UdParameters(new byte[] {1, 2}, AH, 0x11, 0x1234), new UdParameters(new byte[] {1, 2}, AH, 0x11, 0x1234));
    }
}

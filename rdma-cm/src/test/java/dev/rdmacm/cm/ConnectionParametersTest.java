package dev.rdmacm.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Timeout(10)
class ConnectionParametersTest
{
    @Test
    void shouldNotChangeWhenThePrivateDataItWasMadeFromChanges()
    {
        final byte[] data = {1, 2, 3};
        final ConnectionParameters parameters = ConnectionParameters.of(1, 1).privateData(data);

        data[0] = 9;

        assertArrayEquals(new byte[] {1, 2, 3}, parameters.privateData());
    }

    @Test
    void shouldNotChangeWhenThePrivateDataItHandedOutChanges()
    {
        final ConnectionParameters parameters = ConnectionParameters.of(1, 1).privateData(new byte[] {1, 2, 3});

        parameters.privateData()[0] = 9;

        assertArrayEquals(new byte[] {1, 2, 3}, parameters.privateData());
    }

    @Test
    void shouldEqualParametersOfTheSamePrivateData()
    {
        final ConnectionParameters one = ConnectionParameters.of(1, 1).privateData(new byte[] {1, 2, 3});
        final ConnectionParameters other = ConnectionParameters.of(1, 1).privateData(new byte[] {1, 2, 3});

        assertEquals(one, other);
        assertEquals(one.hashCode(), other.hashCode());
        assertNotEquals(one, ConnectionParameters.of(1, 1).privateData(new byte[] {1, 2, 4}));
    }

    @Test
    void shouldPrintThePrivateDataInHex()
    {
        assertEquals("ConnectionParameters[privateData=0102ff, responderResources=1, initiatorDepth=2, flowControl=false, " +
            "retryCount=7, rnrRetryCount=7]", ConnectionParameters.of(1, 2).privateData(new byte[] {1, 2, -1}).toString());
    }
}

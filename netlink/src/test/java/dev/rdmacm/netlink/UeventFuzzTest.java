package dev.rdmacm.netlink;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the kernel's uevent datagrams ({@link Uevent#decode}),
 * as {@link UeventSocket} receives them. The contract: never an exception; null for what is no kernel
 * uevent, else an event with its ACTION and DEVPATH. Seeds: uevents the kernel sent when a veth pair was
 * added and removed in a namespace.
 */
class UeventFuzzTest
{
    @FuzzTest
    void shouldDecodeAUeventOrNull(final byte[] datagram)
    {
        final Uevent event = Uevent.decode(datagram, datagram.length);
        if (event == null)
        {
            return;
        }
        assertNotNull(event.action());
        assertNotNull(event.devpath());
        assertEquals(event.action(), event.properties().get("ACTION"));
        event.removedRdmaDevice();
    }
}

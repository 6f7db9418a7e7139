package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class CmEventTest
{
    @Test
    void shouldHaveOneRecordForEachKindOfLibrdmacmEvent() throws Exception
    {
        final Set<CmEventType> kinds = EnumSet.noneOf(CmEventType.class);
        final Deque<Class<?>> open = new ArrayDeque<>(Arrays.asList(CmEvent.class.getPermittedSubclasses()));
        int records = 0;
        while (!open.isEmpty())
        {
            final Class<?> type = open.pop();
            if (type.isInterface())
            {
                open.addAll(Arrays.asList(type.getPermittedSubclasses()));
                continue;
            }
            assertTrue(type.isRecord(), type + " is a record");
            records++;
            final Object[] arguments = Arrays.stream(type.getRecordComponents())
                .map(c -> c.getType() == int.class ? (Object)(type == CmEvent.AddrinfoError.class ? Errno.EIO : -Errno.EIO) :
                    c.getType() == long.class ? (Object)0L : null).toArray();
            final CmEvent event = (CmEvent)type.getDeclaredConstructors()[0].newInstance(arguments);
            assertTrue(kinds.add(event.type()), "one record for " + event.type());
        }
        assertEquals(EnumSet.allOf(CmEventType.class), kinds);
        assertEquals(CmEventType.values().length, records);
    }

    @Test
    void shouldRefuseAnErrorEventWhoseStatusIsNotANegativeErrno()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new CmEvent.AddrError(null, Errno.ETIMEDOUT, "timed out", null));
        assertEquals("an error event's status is a negative errno, not 110", ex.getMessage());
    }

    @Test
    void shouldRefuseAnAddrinfoErrorWhoseStatusIsNotLibrdmacmsPositiveErrno()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new CmEvent.AddrinfoError(null, -Errno.ENOENT));
        assertEquals("ADDRINFO_ERROR's status is a positive errno, not -2", ex.getMessage());
    }

    @Test
    void shouldSwitchOverTheKindAndPrintLikeLibrdmacmNamesIt()
    {
        final CmEvent event = new CmEvent.AddrError(null, -Errno.ETIMEDOUT, "no ARP reply", null);
        final String seen = switch (event)
        {
            case CmEvent.AddrResolved resolved -> "resolved " + resolved.resolution();
            case CmEvent.AddrError error -> "errno " + error.errno();
            default -> "other";
        };
        assertEquals("errno 110", seen);
        assertEquals("ADDR_ERROR status -110 (ETIMEDOUT): no ARP reply", event.toString());
    }

    @Test
    void shouldNotChangeWhenThePrivateDataItWasMadeFromChanges()
    {
        final byte[] data = {1, 2, 3};
        final CmEvent.Rejected rejected = new CmEvent.Rejected(null, 28, data);

        data[0] = 9;

        assertArrayEquals(new byte[] {1, 2, 3}, rejected.privateData());
    }

    @Test
    void shouldNotChangeWhenThePrivateDataItHandedOutChanges()
    {
        final CmEvent.Established established = new CmEvent.Established(null, new byte[] {1, 2, 3});

        established.privateData()[0] = 9;

        assertArrayEquals(new byte[] {1, 2, 3}, established.privateData());
    }

    @Test
    void shouldEqualAnEventOfTheSamePrivateData()
    {
        assertEquals(new CmEvent.ConnectRequest(null, null, new byte[] {1, 2}), new CmEvent.ConnectRequest(null, null, new byte[] {1, 2}));
    }
}

package dev.rdmacm.protocol.path;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbvPathDataTest
{
    private static final String SA_H = "#include <infiniband/sa.h>";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[IbvPathData.LENGTH]);
    private final IbvPathData data = new IbvPathData();

    @Test
    void shouldMatchTheLayoutAndFlagsOfInfinibandSaH()
    {
        Peers.requireFile("/usr/include/infiniband/sa.h", "libibverbs-dev");
        CHeaders.assertValues(SA_H, Map.ofEntries(
            entry("sizeof(struct ibv_path_data)", IbvPathData.LENGTH),
            entry("offsetof(struct ibv_path_data, flags)", IbvPathData.FLAGS_OFFSET),
            entry("offsetof(struct ibv_path_data, reserved)", IbvPathData.RESERVED_OFFSET),
            entry("offsetof(struct ibv_path_data, path)", IbvPathData.PATH_OFFSET),
            entry("IBV_PATH_FLAG_GMP", IbvPathData.FLAG_GMP),
            entry("IBV_PATH_FLAG_PRIMARY", IbvPathData.FLAG_PRIMARY),
            entry("IBV_PATH_FLAG_ALTERNATE", IbvPathData.FLAG_ALTERNATE),
            entry("IBV_PATH_FLAG_OUTBOUND", IbvPathData.FLAG_OUTBOUND),
            entry("IBV_PATH_FLAG_INBOUND", IbvPathData.FLAG_INBOUND),
            entry("IBV_PATH_FLAG_INBOUND_REVERSE", IbvPathData.FLAG_INBOUND_REVERSE),
            entry("IBV_PATH_FLAG_BIDIRECTIONAL", IbvPathData.FLAG_BIDIRECTIONAL)));
    }

    @Test
    void shouldEncodeFlagsInHostOrderAndThePathInNetworkOrderAsCDoes()
    {
        Peers.requireFile("/usr/include/infiniband/sa.h", "libibverbs-dev");
        final String fromC = CHeaders.bytesOf(SA_H, IbvPathRecordTest.C_FILL + """
              struct ibv_path_data d;
              memset(&d, 0, sizeof(d));
              d.flags = IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY | IBV_PATH_FLAG_BIDIRECTIONAL;
              d.path = p;
            """, "d");

        data.wrap(buffer, 0).clear()
            .flags(IbvPathData.FLAG_GMP | IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_BIDIRECTIONAL);
        IbvPathRecordTest.encodeSameValues(data.path());

        assertEquals(fromC, CHeaders.hex(buffer, 0, IbvPathData.LENGTH));
    }

    @Test
    void shouldRoundTripTheWidestFlagsWord()
    {
        data.wrap(buffer, 0).clear().flags(0xffff_ffffL);

        assertEquals(0xffff_ffffL, data.wrap(buffer, 0, IbvPathData.LENGTH).flags());
    }

    @Test
    void shouldNameTheFlags()
    {
        data.wrap(buffer, 0).clear().flags(IbvPathData.FLAG_GMP | IbvPathData.FLAG_PRIMARY |
            IbvPathData.FLAG_BIDIRECTIONAL);

        assertTrue(data.toString().startsWith("ibv_path_data{flags=GMP|PRIMARY|OUTBOUND|INBOUND_REVERSE, " +
            "path=ibv_path_record{ServiceID=0x0000000000000000"), data.toString());
    }

    @Test
    void shouldRejectAShortStructNamingIt()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> data.wrap(buffer, 0, 71));

        assertEquals("ibv_path_data: 71 bytes present, the format needs at least 72", ex.getMessage());
    }
}

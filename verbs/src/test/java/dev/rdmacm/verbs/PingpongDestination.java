package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The 52 bytes {@code ibv_rc_pingpong} (rdma-core's {@code libibverbs/examples/rc_pingpong.c})
 * exchanges over TCP before it connects its QP: {@code "%04x:%06x:%06x:%s"} of LID, QPN, PSN and the
 * GID as 32 hex digits of its bytes in network order ({@code gid_to_wire_gid}), NUL-terminated.
 * The client writes its own and reads the server's, then writes {@code "done\0"}.
 */
record PingpongDestination(int lid, int qpn, int psn, Gid gid)
{
    /** {@code sizeof "0000:000000:000000:00000000000000000000000000000000"}. */
    static final int LENGTH = 52;
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);

    byte[] toBytes()
    {
        final String text = "%04x:%06x:%06x:%s".formatted(lid, qpn, psn, HexFormat.of().formatHex(gid.toBytes())) + "\0";
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != LENGTH)
        {
            throw new AssertionError("pingpong destination " + text + " is " + bytes.length + " bytes, not " + LENGTH);
        }
        return bytes;
    }

    static PingpongDestination parse(final byte[] bytes)
    {
        final String text = new String(bytes, StandardCharsets.US_ASCII);
        final String[] fields = text.substring(0, text.indexOf('\0') < 0 ? text.length() : text.indexOf('\0')).split(":");
        if (bytes.length != LENGTH || fields.length != 4 || fields[3].length() != 32)
        {
            throw new AssertionError("not an ibv_rc_pingpong destination: " + HexFormat.of().formatHex(bytes));
        }
        return new PingpongDestination(Integer.parseInt(fields[0], 16), Integer.parseInt(fields[1], 16), Integer.parseInt(fields[2], 16),
            Gid.fromBytes(HexFormat.of().parseHex(fields[3]), 0));
    }
}

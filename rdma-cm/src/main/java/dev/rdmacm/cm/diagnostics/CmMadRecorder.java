package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.protocol.Gid;
import org.agrona.DirectBuffer;

/**
 * Sees every CM MAD a port's CM puts on the wire or takes off it, with the addresses of its GRH: for
 * a capture ({@link PcapCmMadRecorder}) or a trace. A sent MAD is seen after umad took it (one the
 * {@link CmMadFilter} dropped was never sent, and is not seen); a received MAD before the filter (it
 * was on the wire). Set it with {@link dev.rdmacm.cm.RdmaCm#cmMadRecorder}; it runs on the ports' CM threads, must
 * not block, and must copy what it keeps: the buffer is reused. Without one the CM makes no call at all.
 */
@FunctionalInterface
public interface CmMadRecorder
{
    /** Records nothing: the default, which the CM tests for by identity and then skips the call. */
    CmMadRecorder NONE = (direction, source, destination, sourceQp, destinationQp, trafficClass, hopLimit, flowLabel, mad,
        offset, length) ->
    {
    };

    /**
     * One MAD.
     *
     * @param direction     which way it went.
     * @param source        the GRH's source GID: ours for a sent MAD, the peer's for a received one.
     * @param destination   the GRH's destination GID.
     * @param sourceQp      the sending QP (1: the GSI).
     * @param destinationQp the receiving QP.
     * @param trafficClass  the GRH's traffic class.
     * @param hopLimit      the GRH's hop limit.
     * @param flowLabel     the GRH's flow label.
     * @param mad           {@code length} bytes from {@code offset}: the MAD as umad took or gave it.
     * @param offset        where the MAD begins in {@code mad}.
     * @param length        its length in bytes.
     */
    void onMad(CmMadFilter.Direction direction, Gid source, Gid destination, int sourceQp, int destinationQp,
        int trafficClass, int hopLimit, int flowLabel, DirectBuffer mad, int offset, int length);
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.path.IbvPathData;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * librdmacm 44's one {@code struct acm_msg} of an ACM exchange ({@code librdmacm/acm.c}): the RESOLVE
 * request {@code ucma_ib_resolve} builds and the reply it accepts, in one buffer of
 * {@link AcmMessage#MAX_LENGTH} bytes, which is also the most one {@code recv} takes. The wire rules of
 * both ACM clients live here and only here: the blocking {@link AcmSocketClient} of
 * {@code rdma_getaddrinfo} and the CM conductor's nonblocking exchange move the bytes, this class says
 * what they are.
 * <ul>
 * <li>The request: the SOURCE and DEST entries of the IP addresses (DEST flagged NODELAY when asked)
 *     and a PATH entry for AF_IB addresses or a hint route, each optional; the tid counts up.</li>
 * <li>The reply: shorter than the header, of another length than the header says, or of a non-zero
 *     status, it is "no answer"; else {@code ucma_ib_save_resp}'s copy of the PATH entries (from the
 *     first on, consecutive or not, each with its type zeroed) and the first IP/IP6 entry flagged
 *     SOURCE.</li>
 * </ul>
 * <pre>
 *   request: acm_hdr (16) | SOURCE ADDRESS_IP[6] (72) | DEST ADDRESS_IP[6] (72) | PATH (72)   (each optional)
 *   reply:   acm_hdr (16, status 0, length = bytes received) | entries (72 each), PATH flags 0x2b
 * </pre>
 * Not thread-safe: one per connection, used by whoever holds the exchange (a lock, or the conductor).
 */
public final class AcmResolveMessage
{
    private final ByteBuffer bytes = ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH);
    private final UnsafeBuffer message = new UnsafeBuffer(bytes);
    private final MemorySegment segment = MemorySegment.ofBuffer(bytes);
    private final AcmHeader header = new AcmHeader();
    private final AcmEpAddrData entry = new AcmEpAddrData();
    private long tid;

    /** The buffer the request is sent from and the reply received into. */
    public MemorySegment segment()
    {
        return segment;
    }

    /** Writes the RESOLVE request for {@code query}; returns its length. */
    public int encode(final AcmQuery query)
    {
        message.setMemory(0, AcmMessage.MAX_LENGTH, (byte)0);
        int entries = 0;
        if (query.source() != null)
        {
            ipEntry(entries++, AcmEpFlags.SOURCE, query.source());
        }
        if (query.destination() != null)
        {
            ipEntry(entries++, AcmEpFlags.DEST | (query.noDelay() ? AcmEpFlags.NODELAY : 0), query.destination());
        }
        if (query.pathRecord() != null)
        {
            entry.wrap(message, entryOffset(entries++)).type(AcmEpType.PATH).info(query.pathRecord());
        }
        final int length = AcmMessage.resolveLength(entries);
        header.wrap(message, 0).version(AcmHeader.VERSION).opcode(AcmOp.RESOLVE).length(length).tid(++tid);
        return length;
    }

    /**
     * Zeroes the buffer before the one {@code recv}: {@code ucma_ib_save_resp} copies the PATH entries
     * as counted, up to the end of the buffer, so what the reply did not fill must read as zeros.
     */
    public void clearForReply()
    {
        message.setMemory(0, AcmMessage.MAX_LENGTH, (byte)0);
    }

    /** What librdmacm keeps of a reply of {@code received} bytes; empty when it is no answer. */
    public Optional<AcmAnswer> decode(final int received)
    {
        if (received < AcmHeader.LENGTH)
        {
            return Optional.empty();
        }
        header.wrap(message, 0, received);
        if (received != header.length() || header.status() != 0)
        {
            return Optional.empty();
        }
        final int count = (received - AcmHeader.LENGTH) / AcmEpAddrData.LENGTH;
        int firstPath = -1;
        int paths = 0;
        RdmaSockaddr source = null;
        for (int i = 0; i < count; i++)
        {
            entry.wrap(message, entryOffset(i));
            final int type = entry.type();
            if (type == AcmEpType.PATH)
            {
                entry.type(0);
                firstPath = firstPath < 0 ? i : firstPath;
                paths++;
            }
            else if ((type == AcmEpType.ADDRESS_IP || type == AcmEpType.ADDRESS_IP6) && source == null &&
                entry.hasFlag(AcmEpFlags.SOURCE))
            {
                source = sourceOf(type);
            }
        }
        final byte[] route = new byte[paths * IbvPathData.LENGTH];
        if (paths > 0)
        {
            // ucma_ib_save_resp copies path_cnt entries from the first PATH entry on, consecutive or not
            final int available = Math.min(route.length, AcmMessage.MAX_LENGTH - entryOffset(firstPath));
            message.getBytes(entryOffset(firstPath), route, 0, available);
        }
        return Optional.of(new AcmAnswer(route, source));
    }

    private void ipEntry(final int index, final int flags, final RdmaSockaddr address)
    {
        final boolean ipv4 = address instanceof Ipv4Sockaddr;
        final byte[] bytes = ipv4 ? ((Ipv4Sockaddr)address).addressBytes() : ((Ipv6Sockaddr)address).address();
        entry.wrap(message, entryOffset(index)).flags(flags).type(ipv4 ? AcmEpType.ADDRESS_IP : AcmEpType.ADDRESS_IP6)
            .info(bytes);
    }

    private static int entryOffset(final int index)
    {
        return AcmHeader.LENGTH + index * AcmEpAddrData.LENGTH;
    }

    private RdmaSockaddr sourceOf(final int type)
    {
        final byte[] info = new byte[AcmEpAddrData.INFO_LENGTH];
        entry.getInfo(info);
        if (type == AcmEpType.ADDRESS_IP)
        {
            return new Ipv4Sockaddr(new UnsafeBuffer(info).getInt(0, ByteOrder.BIG_ENDIAN), 0);
        }
        final byte[] address = new byte[AcmEpAddrData.IPV6_LENGTH];
        System.arraycopy(info, 0, address, 0, address.length);
        return new Ipv6Sockaddr(address, 0, 0, 0);
    }
}

package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpConfigData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.acm.AcmPerfData;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Map;

/**
 * PERF_QUERY and EP_QUERY: what a client may ask about the service itself (the counters, the
 * endpoints), answered at once from the service's state, as ibacm's {@code acm_svr_perf_query} and
 * {@code acm_svr_ep_query} answer. Used by {@link AcmService} on the server thread only.
 */
final class AcmEndpointQueries
{
    private final List<AcmEndpoint> endpoints;
    private final Map<AcmAddress, AcmEndpoint> endpointByAddress;
    private final AcmCounters counters;
    private final AcmHeader header = new AcmHeader();
    private final AcmHeader replyHeader = new AcmHeader();
    private final AcmEpAddrData entry = new AcmEpAddrData();
    private final AcmPerfData perfData = new AcmPerfData();
    private final AcmEpConfigData epConfig = new AcmEpConfigData();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[AcmConnection.MAX_REPLY_LENGTH]);

    AcmEndpointQueries(final List<AcmEndpoint> endpoints, final Map<AcmAddress, AcmEndpoint> endpointByAddress,
        final AcmCounters counters)
    {
        this.endpoints = endpoints;
        this.endpointByAddress = endpointByAddress;
        this.counters = counters;
    }

    /** PERF_QUERY: the service's counters, or an endpoint's by index or by source address. */
    void perfQuery(final AcmClientChannel connection, final UnsafeBuffer request, final int length)
    {
        header.wrap(request, 0, AcmHeader.LENGTH);
        final int index = header.srcIndex();
        AcmCounters source = null;
        boolean global = false;
        if (length < AcmMessage.resolveLength(1))
        {
            if (index < 1)
            {
                global = true;
            }
            else
            {
                // acm_svr_perf_query passes src_index as both the index and the port filter of
                // acm_get_ep: "-P N" counts the N-th endpoint among those on port N, so the 2nd
                // endpoint of a one-endpoint-per-port device is ESRCADDR. Kept, since clients see it.
                final AcmEndpoint endpoint = endpointByIndex(index, index);
                source = endpoint == null ? null : endpoint.counters();
            }
        }
        else
        {
            entry.wrap(request, AcmHeader.LENGTH, AcmEpAddrData.LENGTH);
            if (!entry.hasFlag(AcmEpFlags.SOURCE))
            {
                global = true;
            }
            else if (AcmEpType.isAddressType(entry.type()))
            {
                final AcmEndpoint endpoint = endpointByAddress.get(AcmAddress.of(entry));
                source = endpoint == null ? null : endpoint.counters();
            }
        }
        if (global)
        {
            source = counters;
        }
        reply.putBytes(0, request, 0, AcmHeader.LENGTH);
        replyHeader.wrap(reply, 0).opcode(header.opcode() | AcmOp.ACK).status(AcmStatus.SUCCESS).dstIndex(0);
        if (source == null)
        {
            replyHeader.status(AcmStatus.ESRCADDR).length(AcmHeader.LENGTH);
            connection.reply(reply, 0, AcmHeader.LENGTH);
            return;
        }
        perfData.wrap(reply, AcmHeader.LENGTH);
        for (final AcmCounter counter : AcmCounter.values())
        {
            perfData.counter(counter.ordinal(), source.get(counter));
        }
        final int replyLength = AcmHeader.LENGTH + AcmPerfData.LENGTH;
        replyHeader.srcOut(AcmCounter.COUNT).length(replyLength);
        connection.reply(reply, 0, replyLength);
    }

    /** EP_QUERY: one endpoint's device, port, P_Key and addresses. */
    void epQuery(final AcmClientChannel connection, final UnsafeBuffer request)
    {
        header.wrap(request, 0, AcmHeader.LENGTH);
        final AcmEndpoint endpoint = endpointByIndex(header.srcOut(), header.srcIndex());
        reply.putBytes(0, request, 0, AcmHeader.LENGTH);
        replyHeader.wrap(reply, 0).opcode(header.opcode() | AcmOp.ACK).srcIndex(0).dstIndex(0);
        if (endpoint == null)
        {
            replyHeader.status(AcmStatus.EINVAL).length(AcmHeader.LENGTH);
            connection.reply(reply, 0, AcmHeader.LENGTH);
            return;
        }
        final List<AcmAddress> names = endpoint.addresses();
        epConfig.wrap(reply, AcmHeader.LENGTH).devGuid(endpoint.devGuid()).portNum(endpoint.portNum())
            .physPortCnt(endpoint.physPortCnt()).pkey(endpoint.pkey()).addrCnt(names.size()).provName(AcmService.PROVIDER_NAME);
        for (int i = 0; i < names.size(); i++)
        {
            epConfig.addr(i, names.get(i).toString());
        }
        final int replyLength = AcmHeader.LENGTH + AcmEpConfigData.encodedLength(names.size());
        replyHeader.status(AcmStatus.SUCCESS).length(replyLength);
        connection.reply(reply, 0, replyLength);
    }

    /** ibacm's {@code acm_get_ep}: the index-th (1-based) endpoint among those on {@code port} (0 = any). */
    private AcmEndpoint endpointByIndex(final int index, final int port)
    {
        int seen = 0;
        for (final AcmEndpoint endpoint : endpoints)
        {
            if (port != 0 && endpoint.portNum() != port)
            {
                continue;
            }
            if (++seen == index)
            {
                return endpoint;
            }
        }
        return null;
    }
}

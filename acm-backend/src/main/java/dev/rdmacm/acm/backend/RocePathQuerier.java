package dev.rdmacm.acm.backend;

import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmStatus;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;

/**
 * acm-server's route misses on a RoCE port, where there is no SA: the path the kernel CM would build
 * ({@code cma_resolve_iboe_route}), from this stack's {@code rdma_resolve_addr} and
 * {@code rdma_resolve_route} between the endpoint's address and the destination GID's IP address (a
 * RoCE v2 GID is its IPv4-mapped or IPv6 address). A librdmacm client then hands the path to its
 * kernel with {@code RDMA_OPTION_IB_PATH}, which takes the GIDs from it and the L2 fields from its own
 * neighbour table. The RawTraffic bits, reserved in {@code ibv_path_record}, and the flow label are
 * cleared; the hop limit stays.
 */
final class RocePathQuerier extends CmBackend implements AcmPathQuerier
{
    RocePathQuerier(final RdmaCm cm, final Duration timeout)
    {
        super(cm, timeout);
    }

    @Override
    public void query(final AcmEndpoint endpoint, final byte[] template, final Completion completion)
    {
        final Gid dgid = new IbvPathRecord().wrap(new UnsafeBuffer(template), 0, template.length).dgid();
        final InetAddress target = ipOf(dgid);
        final InetAddress source = sourceOf(endpoint, target instanceof Inet4Address);
        if (dgid.isZero() || source == null)
        {
            completion.onError(AcmStatus.ENODATA, dgid.isZero() ? "a RoCE route needs a DGID, not a LID" :
                endpoint + " has no address of " + target + "'s family");
            return;
        }
        final RdmaCmId id = probe((reason, status) -> completion.onError(status, reason));
        if (id == null)
        {
            return;
        }
        id.resolveAddrAsync(source, target, timeout).thenCompose(resolved -> id.resolveRouteAsync(timeout))
            .whenComplete((route, failure) ->
            {
                id.close();
                if (failure != null)
                {
                    completion.onError(status(failure), failure.getMessage());
                    return;
                }
                final byte[] path = Arrays.copyOfRange(route.primary().toPathData(), IbvPathData.PATH_OFFSET, IbvPathData.LENGTH);
                // RawTraffic, reserved and the flow label go: the kernel's flow label hashes this probe's
                // own ports, which mean nothing to the client's connection (OpenSM's paths carry 0 too)
                path[IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET] = 0;
                path[IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET + 1] = 0;
                path[IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET + 2] = 0;
                completion.onPath(path);
            });
    }

    /** The IP address a RoCE v2 GID stands for: IPv4-mapped, else the 16 bytes as IPv6. */
    static InetAddress ipOf(final Gid gid)
    {
        final byte[] bytes = gid.toBytes();
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("16 bytes are always an address", ex);
        }
    }
}

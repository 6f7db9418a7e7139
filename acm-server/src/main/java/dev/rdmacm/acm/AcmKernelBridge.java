package dev.rdmacm.acm;

import dev.rdmacm.netlink.rdma.LsResolveRequest;
import dev.rdmacm.netlink.rdma.LsResolveResponse;
import dev.rdmacm.netlink.rdma.RdmaNlLs;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.Consumer;

/**
 * Kernel offload: answers the kernel SA client's RDMA netlink local-service path queries
 * ({@code RDMA_NL_LS_OP_RESOLVE}) from the service's route tables, as ibacm does
 * ({@code acm_nl_process_resolve}, {@code acm_nl_send}): the request's attributes become a PATH
 * entry of an ACM RESOLVE, the service resolves it like any client's, and the answer goes back as a
 * PATH_RECORD attribute, or as a header with {@link RdmaNlLs#F_ERR} for any failure, a malformed
 * request or an operation other than RESOLVE.
 * <p>
 * The netlink socket itself ({@code NETLINK_RDMA}, group {@code RDMA_NL_GROUP_LS}) is not opened
 * here: this machine's kernel has no RDMA support, so whoever owns such a socket passes each
 * received message to {@link #onMessage} and sends what {@code toKernel} is given.
 */
public final class AcmKernelBridge
{
    private final AcmServer server;
    private final long pid;
    private final Consumer<byte[]> toKernel;
    private long requests;

    /**
     * @param pid      the nlmsg_pid of our answers (ibacm uses its process id).
     * @param toKernel receives each encoded answer, on the server thread.
     */
    public AcmKernelBridge(final AcmServer server, final long pid, final Consumer<byte[]> toKernel)
    {
        this.server = server;
        this.pid = pid;
        this.toKernel = toKernel;
    }

    /** One message from the kernel; any thread. Messages of other RDMA netlink clients are ignored. */
    public void onMessage(final byte[] message)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(message.clone());
        final NetlinkMessageHeader header;
        try
        {
            header = new NetlinkMessageHeader().wrap(buffer, 0, message.length);
        }
        catch (final MalformedMessageException ex)
        {
            return;
        }
        if (RdmaNlLs.client(header.type()) != RdmaNlLs.CLIENT_LS)
        {
            return;
        }
        final LsResolveRequest request;
        try
        {
            if (RdmaNlLs.op(header.type()) != RdmaNlLs.OP_RESOLVE)
            {
                throw new MalformedMessageException("LS operation " + RdmaNlLs.op(header.type()) + " is not RESOLVE");
            }
            request = LsResolveRequest.decode(buffer, 0, message.length);
        }
        catch (final MalformedMessageException ex)
        {
            final LsResolveRequest unanswerable = new LsResolveRequest(header.sequence(), "", 0, 0, null, null, null,
                null, null, null);
            server.execute(() -> send(buffer, LsResolveResponse.encodeError(buffer, 0, unanswerable, pid)));
            return;
        }
        final UnsafeBuffer acm = new UnsafeBuffer(new byte[AcmMessage.resolveLength(1)]);
        new AcmHeader().wrap(acm, 0).version(AcmHeader.VERSION).opcode(AcmOp.RESOLVE).length(acm.capacity());
        new AcmEpAddrData().wrap(acm, AcmHeader.LENGTH).type(AcmEpType.PATH);
        acm.putBytes(AcmHeader.LENGTH + AcmEpAddrData.INFO_OFFSET, request.pathTemplate());
        server.execute(() -> server.service().onRequest(new KernelChannel(request), acm, acm.capacity(), acm.capacity()));
    }

    private void send(final DirectBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        toKernel.accept(bytes);
    }

    /** Turns the service's ACM answer into the LS answer for one kernel request. */
    private final class KernelChannel implements AcmClientChannel
    {
        private final LsResolveRequest request;
        private final long id = ++requests;

        KernelChannel(final LsResolveRequest request)
        {
            this.request = request;
        }

        @Override
        public long id()
        {
            return id;
        }

        @Override
        public void reply(final DirectBuffer buffer, final int offset, final int length)
        {
            final UnsafeBuffer out =
                new UnsafeBuffer(new byte[NetlinkMessageHeader.LENGTH + 4 + LsResolveResponse.PATH_REC_DATA_LENGTH]);
            final AcmHeader header = new AcmHeader().wrap(buffer, offset, length);
            if (header.status() != AcmStatus.SUCCESS || length < AcmMessage.resolveLength(1))
            {
                send(out, LsResolveResponse.encodeError(out, 0, request, pid));
                return;
            }
            final byte[] path = new byte[LsResolveResponse.PATH_LENGTH];
            buffer.getBytes(offset + AcmHeader.LENGTH + AcmEpAddrData.INFO_OFFSET, path);
            send(out, LsResolveResponse.encodePath(out, 0, request, pid, path));
        }
    }
}

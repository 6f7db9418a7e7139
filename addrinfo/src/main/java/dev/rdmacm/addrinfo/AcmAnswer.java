package dev.rdmacm.addrinfo;

/**
 * An accepted ACM reply (status 0, length as announced), as librdmacm keeps it ({@code ucma_ib_save_resp}).
 *
 * @param route  the PATH entries as consecutive 72-byte {@code ibv_path_data}; may be empty.
 * @param source the first IP/IP6 entry flagged {@code SOURCE}, with port 0, or null; it becomes the
 *               result's source only when the result has none.
 */
public record AcmAnswer(byte[] route, RdmaSockaddr source)
{
    public AcmAnswer
    {
        route = route == null ? new byte[0] : route.clone();
    }

    @Override
    public byte[] route()
    {
        return route.clone();
    }
}

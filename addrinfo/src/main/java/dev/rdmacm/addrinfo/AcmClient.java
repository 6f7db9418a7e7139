package dev.rdmacm.addrinfo;

import java.util.Optional;

/**
 * The ACM step of {@code rdma_getaddrinfo} (librdmacm {@code ucma_ib_resolve}): for every non-passive
 * result librdmacm asks an ibacm-compatible service for a route. An implementation speaks the ACM
 * socket protocol (or answers in-process); {@link #NONE} is "no ACM service reachable", librdmacm's
 * behaviour when neither {@code /run/ibacm.port} nor {@code /run/ibacm.sock} accepts a connection.
 * <p>
 * Every ACM failure is silent in librdmacm — a refused connection, a non-zero status, a reply of the
 * wrong length — so an implementation returns {@link Optional#empty()} for all of them and never throws.
 */
@FunctionalInterface
public interface AcmClient
{
    AcmClient NONE = query -> Optional.empty();

    Optional<AcmAnswer> resolve(AcmQuery query);
}

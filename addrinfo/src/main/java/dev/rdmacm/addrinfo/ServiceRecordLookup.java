package dev.rdmacm.addrinfo;

import java.util.List;

/**
 * The SA ServiceRecord lookup behind {@link RaiFlags#SA} (upstream librdmacm's
 * {@code ucma_getaddrinfo_sa}, which asks the kernel to query every active IB port's SA). The
 * sa-client module implements it over a MAD transport; {@link #NONE} has no IB port and finds nothing.
 */
@FunctionalInterface
public interface ServiceRecordLookup
{
    ServiceRecordLookup NONE = query -> List.of();

    /**
     * All ServiceRecords matching {@code query} on every active IB port.
     *
     * @throws ServiceRecordLookupException when the SA cannot be asked or does not answer.
     */
    List<ServiceRecordMatch> lookup(ServiceQuery query) throws ServiceRecordLookupException;
}

package dev.rdmacm.cm;

/** The id's settable parameters, as {@link IdCommand.SetOption} carries them; ranges are checked by the caller. */
sealed interface IdOption
{
    /** {@code rdma_set_service_type}. */
    record ServiceType(int typeOfService) implements IdOption
    {
    }

    /** {@code rdma_set_ack_timeout}. */
    record AckTimeout(int timeout) implements IdOption
    {
    }

    /** The REQ's CM response timeouts and Max CM Retries. */
    record CmResponseTimeout(int timeout, int maxRetries) implements IdOption
    {
    }

    /** {@code RDMA_OPTION_ID_REUSEADDR}: IDLE only. */
    record ReuseAddr(boolean reuse) implements IdOption
    {
    }

    /** {@code RDMA_OPTION_ID_AFONLY}: IDLE or ADDR_BOUND only. */
    record AfOnly(boolean value) implements IdOption
    {
    }

    /** The {@code sin6_flowinfo} of an IPv6 source. */
    record SourceFlowinfo(int flowinfo) implements IdOption
    {
    }
}

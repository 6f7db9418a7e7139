package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.util.Optional;

/**
 * Where a UD datagram goes ({@code struct ibv_ah_attr}): a LID on the local subnet, or, with a global
 * route header, a GID (required on RoCE, and across InfiniBand subnets).
 *
 * @param port         the local port to send from.
 * @param dlid         the destination LID (0 on RoCE).
 * @param serviceLevel the SL, 0-15.
 * @param srcPathBits  the low LID bits selecting one of the port's LMC paths.
 * @param staticRate   an {@code IBV_RATE_*} limit, 0 for none.
 * @param grh          the global route, when there is one.
 */
public record AddressVector(int port, int dlid, int serviceLevel, int srcPathBits, int staticRate,
    Optional<GlobalRoute> grh)
{
    /**
     * The global route header fields.
     *
     * @param dgid         the destination GID.
     * @param sgidIndex    the index of the source GID in the local port's table.
     * @param hopLimit     the hop limit (1 within a subnet, 64 usual for RoCE v2).
     * @param trafficClass the traffic class.
     * @param flowLabel    the 20-bit flow label.
     */
    public record GlobalRoute(Gid dgid, int sgidIndex, int hopLimit, int trafficClass, int flowLabel)
    {
        public GlobalRoute
        {
            if (sgidIndex < 0 || sgidIndex > 255 || hopLimit < 0 || hopLimit > 255 || trafficClass < 0
                || trafficClass > 255 || flowLabel < 0 || flowLabel > 0xf_ffff)
            {
                throw new IllegalArgumentException("GRH sgid_index " + sgidIndex + ", hop_limit " + hopLimit
                    + ", traffic_class " + trafficClass + " (each 0-255) or flow_label " + flowLabel + " (0-0xfffff) out of range");
            }
        }
    }

    public AddressVector
    {
        if (port < 1 || port > 255 || dlid < 0 || dlid > 0xffff || serviceLevel < 0 || serviceLevel > 15
            || srcPathBits < 0 || srcPathBits > 127 || staticRate < 0 || staticRate > 255)
        {
            throw new IllegalArgumentException("address vector port " + port + " (1-255), dlid " + dlid + " (0-0xffff), sl "
                + serviceLevel + " (0-15), src_path_bits " + srcPathBits + " (0-127) or static_rate " + staticRate
                + " out of range");
        }
    }

    /** To a LID on the local InfiniBand subnet. */
    public static AddressVector lid(final int port, final int dlid, final int serviceLevel)
    {
        return new AddressVector(port, dlid, serviceLevel, 0, 0, Optional.empty());
    }

    /** With a global route header: to a GID, through {@code dlid} (0 on RoCE). */
    public static AddressVector global(final int port, final int dlid, final int serviceLevel, final Gid dgid,
        final int sgidIndex, final int hopLimit)
    {
        return new AddressVector(port, dlid, serviceLevel, 0, 0, Optional.of(new GlobalRoute(dgid, sgidIndex, hopLimit, 0, 0)));
    }
}

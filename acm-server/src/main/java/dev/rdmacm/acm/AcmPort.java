package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * The port the service is attached to, as ibacm's {@code acm_port_up} learns it from the device: its
 * name and number, GID and LID, P_Key table, and the IP addresses of its netdevs. The endpoints are
 * built from it ({@link AcmPortEndpoints}) instead of from an endpoint file.
 *
 * @param device      the RDMA device name the endpoint file's lines name ({@code ibsim0} on ibsim).
 * @param physPortCnt the device's number of ports, as EP_QUERY reports it.
 * @param pkeys       the P_Key table in index order, zero entries included or not.
 * @param addresses   the IP addresses of the port's netdevs with the P_Key of each netdev.
 */
public record AcmPort(String device, int portNum, int physPortCnt, Gid gid, int lid, List<Integer> pkeys,
    List<NetdevAddress> addresses)
{
    public AcmPort
    {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(gid, "gid");
        pkeys = List.copyOf(pkeys);
        addresses = List.copyOf(addresses);
    }

    /**
     * An IP address of one of the port's netdevs: an IPoIB child carries its partition's P_Key
     * ({@code /sys/class/net/IF/pkey}), a RoCE netdev the default 0xffff.
     */
    public record NetdevAddress(InetAddress ip, int pkey, String netdev)
    {
        public NetdevAddress
        {
            Objects.requireNonNull(ip, "ip");
            Objects.requireNonNull(netdev, "netdev");
        }
    }

    @Override
    public String toString()
    {
        return device + " port " + portNum + " (gid " + gid + " lid " + lid + ")";
    }
}

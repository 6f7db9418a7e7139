package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.files.ibacm.HostsFile;

import java.util.ArrayList;
import java.util.List;

/**
 * The endpoints of the attached port, built as ibacm builds them ({@code acm_port_up},
 * {@code acm_ep_up}, {@code acm_assign_ep_names}):
 * <ul>
 *   <li>one endpoint per P_Key table entry whose low 15 bits are not zero, in table order, one per
 *       partition (a limited and a full member of one partition are one endpoint);</li>
 *   <li>its addresses: first the IP addresses of the port's netdevs in that partition, then the lines
 *       {@code name device port pkey} of the endpoint file naming this device, port and partition
 *       ({@code default} for the first P_Key of the table; IP literals only with
 *       {@code support_ips_in_addr_cfg 1}, as ibacm), then — beyond ibacm — every hosts-file entry
 *       whose GID is the port's, on the endpoint of the default partition (the first P_Key) alone, so
 *       that the hosts file a user already has names the local port too;</li>
 *   <li>an endpoint left without an address is dropped, as ibacm drops it; the log says so.</li>
 * </ul>
 * An address names one endpoint: a file line that gives an address another partition's endpoint
 * already has is an error naming the line and that endpoint, as in the endpoint file of a server with
 * no attached port ({@link AcmEndpointFile}); a lookup of it could otherwise answer from either.
 * Extra columns on an endpoint-file line are ignored, as ibacm's {@code sscanf} ignores them.
 */
public final class AcmPortEndpoints
{
    private static final int FULL_MEMBER = 0x8000;

    private AcmPortEndpoints()
    {
    }

    /**
     * @param addrFileLines the endpoint file's lines (empty when there is none).
     * @param hosts         the hosts file, or null.
     */
    public static List<AcmEndpoint> build(final AcmPort port, final List<String> addrFileLines, final String addrFileName,
        final HostsFile hosts, final boolean supportIpsInAddrCfg, final AcmLog log)
    {
        final List<AcmEndpoint> endpoints = new ArrayList<>();
        final int defaultPkey = port.pkeys().isEmpty() ? 0 : port.pkeys().getFirst();
        for (final int pkey : port.pkeys())
        {
            if ((pkey & 0x7fff) == 0 || endpoints.stream().anyMatch(ep -> samePartition(ep.pkey(), pkey)))
            {
                continue;
            }
            final AcmEndpoint endpoint = new AcmEndpoint(endpoints.size() + 1, port.device(), port.portNum(),
                port.physPortCnt(), pkey, port.gid(), port.lid());
            for (final AcmPort.NetdevAddress address : port.addresses())
            {
                if ((pkey | FULL_MEMBER) == address.pkey())
                {
                    add(endpoint, AcmAddress.parse(address.ip().getHostAddress()), address.netdev(), log);
                }
            }
            assignFromFile(endpoint, endpoints, addrFileLines, addrFileName, defaultPkey, supportIpsInAddrCfg, log);
            if (hosts != null && pkey == defaultPkey)
            {
                for (final HostsFile.Host host : hosts.hosts())
                {
                    if (host.gid().equals(port.gid()))
                    {
                        add(endpoint, AcmAddress.of(host), hosts.source() + ":" + host.line(), log);
                    }
                }
            }
            if (endpoint.addresses().isEmpty())
            {
                log.log(0, "no address names " + endpoint + ": it is not served (ibacm drops it too)");
                continue;
            }
            endpoints.add(endpoint);
        }
        return List.copyOf(endpoints);
    }

    private static void assignFromFile(final AcmEndpoint endpoint, final List<AcmEndpoint> earlier, final List<String> lines,
        final String fileName, final int defaultPkey, final boolean supportIps, final AcmLog log)
    {
        int number = 0;
        for (final String raw : lines)
        {
            number++;
            final String where = fileName + ":" + number;
            if (raw.startsWith("#"))
            {
                continue;
            }
            final String[] words = raw.trim().split("\\s+");
            if (words.length < 4)
            {
                if (!raw.isBlank())
                {
                    log.log(1, where + ": not 'address device port pkey', skipped");
                }
                continue;
            }
            final AcmAddress address;
            final int port;
            final int pkey;
            try
            {
                address = AcmAddress.parse(words[0]);
                port = AcmEndpointFile.number(words[2], where, "port", 0, 255);
                pkey = "default".equalsIgnoreCase(words[3]) ? defaultPkey : AcmEndpointFile.number(
                    words[3].startsWith("0x") || words[3].startsWith("0X") ? words[3] : "0x" + words[3], where, "pkey", 0, 0xffff);
            }
            catch (final IllegalArgumentException ex)
            {
                log.log(0, ex.getMessage() + ": skipped");
                continue;
            }
            if (!words[1].equalsIgnoreCase(endpoint.deviceName()) || port != endpoint.portNum() ||
                !samePartition(endpoint.pkey(), pkey))
            {
                continue;
            }
            if (isIp(address) && !supportIps)
            {
                log.log(0, where + ": IP address " + words[0] + " ignored: support_ips_in_addr_cfg is 0, as ibacm's default");
                continue;
            }
            for (final AcmEndpoint other : earlier)
            {
                if (other.hasAddress(address))
                {
                    throw new IllegalArgumentException(where + ": address " + words[0] + " already names " + other +
                        ": an address names one endpoint");
                }
            }
            add(endpoint, address, where, log);
        }
    }

    private static void add(final AcmEndpoint endpoint, final AcmAddress address, final String where, final AcmLog log)
    {
        if (endpoint.hasAddress(address))
        {
            return;
        }
        if (endpoint.addresses().size() == AcmEndpoint.MAX_ADDRESSES)
        {
            log.log(0, where + ": " + endpoint + " already has " + AcmEndpoint.MAX_ADDRESSES + " addresses; " + address +
                " is not added");
            return;
        }
        endpoint.addAddress(address, where);
        log.log(1, "assigned " + address + " to " + endpoint + " (" + where + ")");
    }

    private static boolean isIp(final AcmAddress address)
    {
        return address.type() == AcmEpType.ADDRESS_IP || address.type() == AcmEpType.ADDRESS_IP6;
    }

    /** ibacm's {@code acm_same_partition}: equal once both are full members. */
    static boolean samePartition(final int a, final int b)
    {
        return (a | FULL_MEMBER) == (b | FULL_MEMBER);
    }
}

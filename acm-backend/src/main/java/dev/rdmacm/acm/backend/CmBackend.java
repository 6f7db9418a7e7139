package dev.rdmacm.acm.backend;

import dev.rdmacm.acm.AcmAddress;
import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.acm.AcmStatus;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.ObjIntConsumer;

/**
 * What acm-server's backends on this stack's CM share: a probe id per lookup, resolved from one of
 * the endpoint's own addresses, and the ACM status a CM failure becomes.
 */
abstract class CmBackend
{
    final Duration timeout;
    private final RdmaCm cm;

    CmBackend(final RdmaCm cm, final Duration timeout)
    {
        this.cm = cm;
        this.timeout = timeout;
    }

    /** A new probe id, or null once {@code onError} was told (ENOMEM) why there is none. */
    final RdmaCmId probe(final ObjIntConsumer<String> onError)
    {
        try
        {
            return cm.createId(null);
        }
        catch (final RuntimeException ex)
        {
            onError.accept(ex.getMessage(), AcmStatus.ENOMEM);
            return null;
        }
    }

    /** ETIMEDOUT when the CM gave up for want of an answer (the neighbour's), else ENODATA. */
    static int status(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof RdmaCmException cm && cm.errno() == Errno.ETIMEDOUT ? AcmStatus.ETIMEDOUT : AcmStatus.ENODATA;
    }

    /** The endpoint's first IP address of the family asked for, or null. */
    static InetAddress sourceOf(final AcmEndpoint endpoint, final boolean ipv4)
    {
        for (final AcmAddress address : endpoint.addresses())
        {
            final InetAddress ip = address.inetAddress();
            if (ip != null && (ip instanceof Inet4Address) == ipv4)
            {
                return ip;
            }
        }
        return null;
    }
}

package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The userspace guest's side of the reject case, run as its own JVM there: listen on ADDR:PORT, print
 * the first request's private data (after the IP CM header) up to its first NUL, and reject it with
 * TEXT as the REJ's private data. Usage: {@code RejectWithPrivateData ADDR PORT TEXT}.
 */
public final class RejectWithPrivateData
{
    private static final Duration WAIT = Duration.ofSeconds(120);

    private RejectWithPrivateData()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
            listener.listen(1);
            System.err.println("listening");
            final CmEvent event = channel.getEvent(WAIT);
            if (!(event instanceof CmEvent.ConnectRequest request))
            {
                System.out.println("no connection request: " + event);
                // not System.exit: the main may run in GuestMainDriver's JVM, which a main's exit would end; a main that throws exits with 1 too
                throw new IllegalStateException("no connection request: " + event);
            }
            final byte[] data = request.privateData();
            int end = 0;
            while (end < data.length && data[end] != 0)
            {
                end++;
            }
            System.out.println("request private_data " + new String(data, 0, end, StandardCharsets.US_ASCII));
            event.ack();
            request.id().reject((args[2] + "\0").getBytes(StandardCharsets.US_ASCII));
            // the REJ leaves on the port's CM thread; destroy after it went
            Thread.sleep(1000);
            request.id().destroy();
            listener.destroy();
        }
    }
}

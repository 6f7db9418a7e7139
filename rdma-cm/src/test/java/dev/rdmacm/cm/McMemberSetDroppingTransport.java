package dev.rdmacm.cm;

import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadTransport;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test double for the one SA fault OpenSM cannot be made to produce on request: the SA never sees an
 * MCMemberRecord Set (a lost MAD). Every other MAD goes through to the real ibsim/OpenSM transport.
 */
final class McMemberSetDroppingTransport implements MadTransport
{
    private final MadTransport delegate;
    private final AtomicInteger dropped = new AtomicInteger();

    McMemberSetDroppingTransport(final MadTransport delegate)
    {
        this.delegate = delegate;
    }

    /** How many Sets were dropped. */
    int dropped()
    {
        return dropped.get();
    }

    @Override
    public LocalPort localPort()
    {
        return delegate.localPort();
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        final int method = mad.getByte(offset + MadHeader.METHOD_OFFSET) & 0xff;
        final int attribute = mad.getShort(offset + MadHeader.ATTRIBUTE_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
        if (method == MadMethod.SET && attribute == SaAttribute.MC_MEMBER_RECORD)
        {
            dropped.incrementAndGet();
            return true;
        }
        return delegate.send(destination, mad, offset, length);
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        return delegate.poll(receiver, limit);
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
        delegate.awaitReadable(deadlineNanos);
    }

    @Override
    public void wakeUp()
    {
        delegate.wakeUp();
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}

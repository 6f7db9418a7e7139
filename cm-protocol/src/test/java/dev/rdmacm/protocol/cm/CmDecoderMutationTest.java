package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random bytes, lengths and offsets fed to every CM decoder: only {@link MalformedMessageException}
 * may come out, and whatever wraps must print. A bounded, seeded run for CI.
 */
class CmDecoderMutationTest
{
    private static final int ROUNDS = 2_000;
    private static final List<Supplier<CmMessage<?>>> DECODERS = List.of(ConnectRequest::new, MessageReceiptAck::new,
        ConnectReject::new, ConnectReply::new, ReadyToUse::new, DisconnectRequest::new, DisconnectReply::new,
        LoadAlternatePath::new, AlternatePathResponse::new, SidrRequest::new, SidrReply::new);

    @Test
    void shouldThrowOnlyMalformedMessageExceptionForRandomInput()
    {
        final SplittableRandom random = new SplittableRandom(0x5eed_c0deL);
        final byte[] bytes = new byte[MadHeader.MAD_SIZE + 8];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int round = 0; round < ROUNDS; round++)
        {
            random.nextBytes(bytes);
            final int offset = random.nextInt(-4, 40);
            final int length = random.nextInt(-4, bytes.length + 4);
            for (final Supplier<CmMessage<?>> decoder : DECODERS)
            {
                decode(() -> decoder.get().wrap(buffer, offset, length).toString());
                decode(() -> decoder.get().wrapMad(buffer, offset, length).toString());
            }
            decode(() -> new IpCmPrivateDataHeader().wrap(buffer, offset, length).toString());
        }
    }

    @Test
    void shouldThrowOnlyMalformedMessageExceptionForValidMadsWithRandomMessages()
    {
        final SplittableRandom random = new SplittableRandom(0xc0ff_ee00L);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final byte[] message = new byte[CmMessage.LENGTH];
        final MadHeader header = new MadHeader();
        for (int round = 0; round < ROUNDS; round++)
        {
            for (final Supplier<CmMessage<?>> decoder : DECODERS)
            {
                decoder.get().encodeMad(buffer, 0, header, round);
                random.nextBytes(message);
                buffer.putBytes(CmMad.MESSAGE_OFFSET, message);
                decode(() -> decoder.get().wrapMad(buffer, 0, MadHeader.MAD_SIZE).toString());
                decode(() -> new IpCmPrivateDataHeader().wrap(buffer, random.nextInt(CmMad.MESSAGE_OFFSET,
                    MadHeader.MAD_SIZE), MadHeader.MAD_SIZE).toString());
            }
        }
    }

    @Test
    void shouldRejectMadOfAnotherClass()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        new ReadyToUse().encodeMad(buffer, 0, new MadHeader(), 1);
        new MadHeader().wrap(buffer, 0).mgmtClass(0x03);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new ReadyToUse().wrapMad(buffer, 0, MadHeader.MAD_SIZE));
        assertEquals("RTU MAD: MgmtClass 0x3 is not the CM class 0x07", ex.getMessage());
    }

    @Test
    void shouldRejectLengthThatRunsPastTheBuffer()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> new ConnectRequest().wrap(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 30, CmMessage.LENGTH));
        assertEquals("REQ: 232 bytes at offset 30 do not fit in a buffer of 256 bytes", ex.getMessage());
    }

    private static void decode(final Runnable decoding)
    {
        try
        {
            decoding.run();
        }
        catch (final MalformedMessageException expected)
        {
            // the one documented outcome for bad bytes
        }
        catch (final RuntimeException ex)
        {
            fail("a decoder threw " + ex, ex);
        }
    }
}

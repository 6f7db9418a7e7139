package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every field of one CM message flyweight, and the checks every message test runs against them: the
 * kernel's field positions and ib_cm_types.h's private-data size, the bytes a C program builds for
 * the same values, and round trips at each field's boundaries.
 *
 * @param factory          makes an unwrapped flyweight.
 * @param privateDataMacro ib_cm_types.h's size of the message's private data, e.g. IB_REQ_PDATA_SIZE_VER2.
 */
record CmMessageSpec<M extends CmMessage<M>>(Supplier<M> factory, String privateDataMacro, List<CmField<M>> fields,
                                             List<CmBlock<M>> blocks)
{
    static final long TRANSACTION_ID = 0x0123_4567_89ab_cdefL;

    M newMessage()
    {
        return factory.get();
    }

    /** Every Java offset, mask and shift against the kernel table, and the private data against ib_cm_types.h. */
    void assertPositionsMatchKernel()
    {
        final M message = factory.get();
        final Map<String, String> kernel = KernelCmFields.positions(
            fields.stream().map(CmField::kernelName).toList(),
            blocks.stream().map(CmBlock::kernelName).toList(),
            "  printf(\"pdata %d\\n\", " + privateDataMacro + ");\n" +
            "  printf(\"attr %d\\n\", UMAD_CM_ATTR_" + message.attribute().name() + ");\n");
        final List<String> expected = new ArrayList<>();
        final List<String> actual = new ArrayList<>();
        for (final CmField<M> field : fields)
        {
            expected.add(field.kernelName() + " " + kernel.get(field.kernelName()));
            actual.add(field.kernelName() + " " + field.javaPosition());
        }
        for (final CmBlock<M> block : blocks)
        {
            expected.add(block.kernelName() + " " + kernel.get(block.kernelName()));
            actual.add(block.kernelName() + " " + block.javaPosition());
        }
        expected.add("pdata " + kernel.get("pdata"));
        actual.add("pdata " + message.privateDataLength());
        expected.add("attr " + kernel.get("attr"));
        actual.add("attr " + message.attribute().id());
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    /** Encodes a whole MAD in Java and in C with the same values; the 256 bytes must be equal. */
    void assertEncodesAsC(final boolean maximum)
    {
        final StringBuilder c = new StringBuilder(KernelCmFields.header(factory.get().attribute(), TRANSACTION_ID));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final M message = factory.get().encodeMad(buffer, 0, new MadHeader(), TRANSACTION_ID);
        for (int i = 0; i < blocks.size(); i++)
        {
            final byte[] bytes = blockValue(i, maximum);
            blocks.get(i).setter().accept(message, bytes);
            c.append(KernelCmFields.setBlock(blocks.get(i).kernelName(), bytes));
        }
        for (int i = 0; i < fields.size(); i++)
        {
            final long value = scalarValue(i, maximum);
            fields.get(i).set(message, value);
            c.append(KernelCmFields.setScalar(fields.get(i).kernelName(), value));
        }
        c.append(KernelCmFields.dumpMad());
        final String cBytes = KernelCmFields.run(c.toString()).trim();

        final String ours = BitUtil.toHex(buffer.byteArray());
        assertEquals(cBytes, ours, () -> "the MAD our encoder built differs from the C program's first at message byte " +
            (firstDifference(cBytes, ours) / 2 - CmMad.MESSAGE_OFFSET));
        assertDecodes(BitUtil.fromHex(cBytes), maximum);
    }

    /** Every field at its maximum, then each alone back at 0 and up again: the others must not move. */
    void assertRoundTripsAtBoundaries()
    {
        final M message = factory.get().wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0);
        fields.forEach(field -> field.set(message, field.max()));
        for (final CmField<M> field : fields)
        {
            field.set(message, 0);
            assertAll(message, field, 0, true);
            field.set(message, field.max());
            assertAll(message, field, field.max(), true);
        }
        message.clear();
        for (final CmField<M> field : fields)
        {
            field.set(message, field.max());
            assertAll(message, field, field.max(), false);
            field.set(message, 0);
            assertAll(message, field, 0, false);
        }
        for (int i = 0; i < blocks.size(); i++)
        {
            final byte[] bytes = blockValue(i, false);
            blocks.get(i).setter().accept(message, bytes);
            assertBlock(blocks.get(i), bytes, blocks.get(i).getter().apply(message));
        }
    }

    /** A value one past a field's range is refused, naming the field, and leaves the bytes alone. */
    void assertRejectsValuesOutOfRange()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        final M message = factory.get().wrap(buffer, 0);
        for (final CmField<M> field : fields)
        {
            if (field.bits() == 1 || field.bits() == 64 || !field.ownSetter())
            {
                continue;
            }
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> field.set(message, field.max() + 1), field.kernelName());
            assertTrue(ex.getMessage().startsWith(message.attribute().wireName() + " "), ex.getMessage());
        }
        assertArrayEquals(new byte[CmMessage.LENGTH], buffer.byteArray());
    }

    void assertRejectsShortMessage()
    {
        final M message = factory.get();
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> message.wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0, CmMessage.LENGTH - 1));
        assertEquals(message.attribute().wireName() + ": 231 bytes present, the format needs at least 232",
            ex.getMessage());
    }

    void assertRejectsMadOfAnotherAttribute()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final M message = factory.get();
        message.encodeMad(buffer, 0, new MadHeader(), 1);
        final int otherId = message.attribute() == CmAttribute.REQ ? CmAttribute.REP.id() : CmAttribute.REQ.id();
        new MadHeader().wrap(buffer, 0).attributeId(otherId);
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> factory.get().wrapMad(buffer, 0, MadHeader.MAD_SIZE));
        assertEquals(message.attribute().wireName() + " MAD: AttributeID 0x" + Integer.toHexString(otherId) +
            " is not 0x" + Integer.toHexString(message.attribute().id()), ex.getMessage());
    }

    private static int firstDifference(final String expected, final String actual)
    {
        int i = 0;
        while (i < Math.min(expected.length(), actual.length()) && expected.charAt(i) == actual.charAt(i))
        {
            i++;
        }
        return i;
    }

    private void assertDecodes(final byte[] mad, final boolean maximum)
    {
        final M message = factory.get().wrapMad(new UnsafeBuffer(mad), 0, mad.length);
        for (int i = 0; i < fields.size(); i++)
        {
            assertEquals(scalarValue(i, maximum), fields.get(i).get(message), fields.get(i).kernelName());
        }
        for (int i = 0; i < blocks.size(); i++)
        {
            assertBlock(blocks.get(i), blockValue(i, maximum), blocks.get(i).getter().apply(message));
        }
    }

    private void assertAll(final M message, final CmField<M> changed, final long changedValue, final boolean othersAtMax)
    {
        for (final CmField<M> field : fields)
        {
            final long expected = field == changed ? changedValue : othersAtMax ? field.max() : 0;
            assertEquals(expected, field.get(message), field.kernelName() + " after setting " + changed.kernelName() +
                " to " + changedValue);
        }
    }

    /** ARI and additional information read back only their meaningful bytes, a prefix of what was written. */
    private static <M> void assertBlock(final CmBlock<M> block, final byte[] written, final byte[] read)
    {
        assertEquals(BitUtil.toHex(Arrays.copyOf(written, read.length)), BitUtil.toHex(read), block.kernelName());
    }

    private long scalarValue(final int index, final boolean maximum)
    {
        final CmField<M> field = fields.get(index);
        if (maximum)
        {
            return field.max();
        }
        final long mixed = 0x9e37_79b9_7f4a_7c15L * (index + 7) ^ 0x5a5a_c3c3_a5a5_3c3cL;
        return field.max() == -1L ? mixed : Long.remainderUnsigned(mixed, field.max() + 1);
    }

    private byte[] blockValue(final int index, final boolean maximum)
    {
        final byte[] bytes = new byte[blocks.get(index).length()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(maximum ? 0xff : 31 * i + 17 * index + 1);
        }
        return bytes;
    }
}

package dev.rdmacm.files.text;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a configuration or data file, read with bounds: at most {@code maxBytes} in all and
 * {@link #MAX_LINE_BYTES} per line, each line strict UTF-8. A file that breaks a bound ({@code /dev/zero},
 * a binary, a file grown without limit) or is not UTF-8 is an {@link IllegalArgumentException} naming the
 * file, the line and the rule, never an {@code OutOfMemoryError} or a bare {@code Input length = 1}.
 * Read in chunks of at most {@link #CHUNK_BYTES}, never more than one byte past the bound, so a device or a
 * pipe is read no further than the bound.
 */
public final class BoundedTextFile
{
    /** Longer than any line of ibacm's files (ibacm reads them with 256-byte and 120-byte fgets buffers). */
    public static final int MAX_LINE_BYTES = 4096;
    /** Options and endpoint files: a few hundred lines in practice. */
    public static final long CONFIG_MAX_BYTES = 1L << 20;
    /** Hosts files and path dumps: one line per host or per (source, destination) LID pair. */
    public static final long DATA_MAX_BYTES = 256L << 20;
    /** What one read asks for: a stream's single-byte {@code read()} costs a call (and a lock) per byte. */
    static final int CHUNK_BYTES = 8192;

    private BoundedTextFile()
    {
    }

    /** The lines of {@code file} (without their line terminators), if it respects the bounds. */
    public static List<String> readLines(final Path file, final long maxBytes) throws IOException
    {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 8192))
        {
            return readLines(in, file.toString(), maxBytes);
        }
    }

    /** As {@link #readLines(Path, long)}, from a stream named {@code name} in errors. */
    public static List<String> readLines(final InputStream in, final String name, final long maxBytes)
        throws IOException
    {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final List<String> lines = new ArrayList<>();
        final byte[] line = new byte[MAX_LINE_BYTES];
        final byte[] chunk = new byte[CHUNK_BYTES];
        int length = 0;
        long total = 0;
        int read;
        // never asks for more than one byte past the bound, so a device or a pipe is read no further
        while ((read = in.read(chunk, 0, (int)Math.min(CHUNK_BYTES, maxBytes + 1 - total))) >= 0)
        {
            for (int i = 0; i < read; i++)
            {
                if (++total > maxBytes)
                {
                    throw new IllegalArgumentException(name + ":" + (lines.size() + 1) + ": file is larger than "
                        + maxBytes + " bytes, the most read for it");
                }
                final byte b = chunk[i];
                if (b == '\n')
                {
                    lines.add(decode(decoder, line, length, name, lines.size() + 1));
                    length = 0;
                    continue;
                }
                if (length == MAX_LINE_BYTES)
                {
                    throw new IllegalArgumentException(name + ":" + (lines.size() + 1) + ": line is longer than "
                        + MAX_LINE_BYTES + " bytes");
                }
                line[length++] = b;
            }
        }
        if (length > 0)
        {
            lines.add(decode(decoder, line, length, name, lines.size() + 1));
        }
        return lines;
    }

    private static String decode(final CharsetDecoder decoder, final byte[] bytes, final int length,
        final String name, final int lineNumber)
    {
        final int end = length > 0 && bytes[length - 1] == '\r' ? length - 1 : length;
        try
        {
            final CharBuffer chars = decoder.reset().decode(ByteBuffer.wrap(bytes, 0, end));
            return chars.toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new IllegalArgumentException(name + ":" + lineNumber + ": not UTF-8 (byte 0x"
                + Integer.toHexString(bytes[firstBad(bytes, end)] & 0xff) + " at column " + (firstBad(bytes, end) + 1) + ")");
        }
    }

    /** The offset of the first byte that starts no valid UTF-8 sequence. */
    private static int firstBad(final byte[] bytes, final int end)
    {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes, 0, end);
        final CharBuffer out = CharBuffer.allocate(end + 1);
        decoder.decode(in, out, true);
        return in.position();
    }
}

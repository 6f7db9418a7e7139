package dev.rdmacm.testing.guest;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The "newc" cpio format that the kernel unpacks an initramfs from. Each entry is a 110-byte ASCII
 * header, the NUL-terminated name and the data, each padded to 4 bytes; {@code TRAILER!!!} ends it.
 * <pre>
 *  0      6        14       22       30       38       46       54       62       70       78  ...  102      110
 *  +------+--------+--------+--------+--------+--------+--------+--------+--------+--------+-----+--------+
 *  |070701| ino    | mode   | uid    | gid    | nlink  | mtime  |filesize| devmaj | devmin | ... | check  |
 *  +------+--------+--------+--------+--------+--------+--------+--------+--------+--------+-----+--------+
 *  fields are 8 hex digits: ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor
 *  namesize check; then name NUL pad4, data pad4
 * </pre>
 * Every entry is owned by root with mtime 0, so the same inputs give the same bytes.
 */
final class CpioNewcWriter implements AutoCloseable
{
    private static final int DIRECTORY = 0_040_000;
    private static final int REGULAR = 0_100_000;
    private static final int SYMLINK = 0_120_000;

    private final OutputStream out;
    private long written;
    private int nextInode = 1;

    CpioNewcWriter(final OutputStream out)
    {
        this.out = out;
    }

    CpioNewcWriter directory(final String name) throws IOException
    {
        return entry(name, DIRECTORY | 0755, 2, new byte[0]);
    }

    CpioNewcWriter file(final String name, final int permissions, final byte[] data) throws IOException
    {
        return entry(name, REGULAR | permissions, 1, data);
    }

    CpioNewcWriter symlink(final String name, final String target) throws IOException
    {
        return entry(name, SYMLINK | 0777, 1, target.getBytes(StandardCharsets.UTF_8));
    }

    private CpioNewcWriter entry(final String name, final int mode, final int links, final byte[] data) throws IOException
    {
        final byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        final StringBuilder header = new StringBuilder(110).append("070701");
        for (final long field : new long[] {nextInode++, mode, 0, 0, links, 0, data.length, 0, 0, 0, 0, nameBytes.length + 1, 0})
        {
            header.append(String.format("%08x", field));
        }
        write(header.toString().getBytes(StandardCharsets.US_ASCII));
        write(nameBytes);
        write(new byte[] {0});
        pad();
        write(data);
        pad();
        return this;
    }

    private void write(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        written += bytes.length;
    }

    private void pad() throws IOException
    {
        while ((written & 3) != 0)
        {
            out.write(0);
            written++;
        }
    }

    @Override
    public void close() throws IOException
    {
        entry("TRAILER!!!", 0, 1, new byte[0]);
        out.close();
    }
}

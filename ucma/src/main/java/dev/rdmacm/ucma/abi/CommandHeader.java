package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_cmd_hdr}, the 8 bytes before every command's struct in one
 * {@code write(2)}; host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     cmd (RDMA_USER_CM_CMD_*)                  |  0
 *  +-------------------------------+-------------------------------+
 *  |  in (bytes after the header)  | out (response buffer's room)  |  4
 *  +-------------------------------+-------------------------------+
 * </pre>
 */
public final class CommandHeader extends UcmaStruct<CommandHeader>
{
    public static final int CMD_OFFSET = 0;
    public static final int IN_OFFSET = 4;
    public static final int OUT_OFFSET = 6;
    public static final int LENGTH = 8;

    public CommandHeader()
    {
        super("rdma_ucm_cmd_hdr", LENGTH);
    }

    public long cmd()
    {
        return hostU32(CMD_OFFSET);
    }

    public CommandHeader cmd(final long value)
    {
        putHostU32(CMD_OFFSET, value);
        return this;
    }

    public int in()
    {
        return hostU16(IN_OFFSET);
    }

    public CommandHeader in(final int value)
    {
        putHostU16(IN_OFFSET, value);
        return this;
    }

    public int out()
    {
        return hostU16(OUT_OFFSET);
    }

    public CommandHeader out(final int value)
    {
        putHostU16(OUT_OFFSET, value);
        return this;
    }
}

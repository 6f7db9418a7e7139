package dev.rdmacm.verbs.sysfs;

import java.nio.file.Path;

/**
 * A sysfs file that is missing, empty, unreadable or holds text that breaks the kernel's format.
 * The message names the file and the rule, e.g.
 * {@code /sys/class/infiniband/mlx5_0/ports/1/lid: 'fifteen' is not a LID; expected 0x followed by
 * 1 to 4 hex digits, e.g. 0x5}.
 */
public final class SysfsFormatException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public SysfsFormatException(final Path file, final String problem)
    {
        super(file + ": " + problem, null, false, false);
        this.file = file;
    }

    /** The file that broke the rule. */
    public Path file()
    {
        return file;
    }
}

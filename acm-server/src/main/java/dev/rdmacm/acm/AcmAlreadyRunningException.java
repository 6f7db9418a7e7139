package dev.rdmacm.acm;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The service's lock file ({@code ibacm.pid}) is held by another process (ibacm or another
 * acm-server) or by another service in this process: this one does not start, and takes nothing
 * over. The message names the file and the holder's pid, as the file gives it.
 */
public final class AcmAlreadyRunningException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final Path lockFile;
    private final long holderPid;

    AcmAlreadyRunningException(final Path lockFile, final long holderPid, final String who)
    {
        super(lockFile + " is locked by " + (holderPid > 0 ? "pid " + holderPid : "a process that wrote no pid")
            + " (" + who + "): an ACM service already runs there; stop it first, or give this one another run_dir "
            + "or lock_file");
        this.lockFile = lockFile;
        this.holderPid = holderPid;
    }

    public Path lockFile()
    {
        return lockFile;
    }

    /** The pid in the lock file, or -1 when it holds none. */
    public long holderPid()
    {
        return holderPid;
    }
}

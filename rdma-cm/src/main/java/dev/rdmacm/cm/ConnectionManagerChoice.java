package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.umad.AgentInUseException;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.List;

/**
 * Which CM runs an {@link RdmaCm}'s connections ({@link RdmaCm.Options#connectionManager()}) and, once one id
 * needs it, the kernel's ({@link KernelCm}). {@link ConnectionManager#AUTO} decides at the first connect or
 * listen: it opens the ports' userspace CM, and takes the kernel's when that failed: because the kernel's
 * {@code ib_cm} holds the CM class ({@link AgentInUseException#kernelCmLoaded()}; ib_cm registers the class on
 * every port when it loads, so the choice then holds for every port), or for another reason (no umad device, no
 * access) while {@code /dev/infiniband/rdma_cm} is there; without it the userspace failure is the call's. The choice is logged and named in the
 * trace of each id that connects or listens ({@link #text()}).
 */
final class ConnectionManagerChoice
{
    private static final System.Logger LOG = System.getLogger(ConnectionManagerChoice.class.getName());

    private final RdmaCm cm;
    private final ConductorAgent agent;
    private final IdConductor conductor;
    private KernelCm kernelCm;
    /** The kernel CM's device and ABI version file: the kernel's, unless a test gave others ({@link #kernelCmFiles}). */
    private Path kernelCmDevice = UcmaChannel.DEVICE;
    private Path kernelCmAbiVersion = UcmaChannel.ABI_VERSION_FILE;
    /** Set when a port's CM could not be opened because the kernel's ib_cm holds the class: AUTO's cue. */
    private boolean kernelCmHoldsClass;
    /** Why AUTO chose the kernel's CM, or null while it has not. */
    private String autoChoseKernel;
    private boolean closed;

    ConnectionManagerChoice(final RdmaCm cm, final ConductorAgent agent, final IdConductor conductor)
    {
        this.cm = cm;
        this.agent = agent;
        this.conductor = conductor;
    }

    /** A port's userspace CM could not be opened: AUTO looks at why. */
    synchronized void portCmFailed(final ErrnoException failure)
    {
        kernelCmHoldsClass |= failure instanceof AgentInUseException inUse && inUse.kernelCmLoaded();
    }

    /**
     * Whether the connections of ids on {@code bindings} run through the kernel's CM: KERNEL says yes, USERSPACE
     * no, and AUTO opens the ports' userspace CM (kept open for the call that asked) and says yes when it could
     * not, as the class comment says.
     */
    boolean kernelConnects(final List<RdmaPortBinding> bindings, final String call) throws RdmaCmException
    {
        switch (cm.options().connectionManager())
        {
            case USERSPACE ->
            {
                return false;
            }
            case KERNEL ->
            {
                return true;
            }
            default ->
            {
                synchronized (this)
                {
                    if (autoChoseKernel != null)
                    {
                        return true;
                    }
                }
                try
                {
                    cm.cmAgents(bindings, call);
                    return false;
                }
                catch (final RdmaCmException ex)
                {
                    synchronized (this)
                    {
                        if (kernelCmHoldsClass)
                        {
                            autoChoseKernel = "the kernel's ib_cm holds the CM class";
                        }
                        else if (Files.exists(UcmaChannel.DEVICE))
                        {
                            autoChoseKernel = "the userspace CM could not be opened: " + ex.getMessage();
                        }
                        else
                        {
                            throw ex;
                        }
                    }
                    LOG.log(System.Logger.Level.INFO, "connection manager AUTO chose the kernel's: " + ex.getMessage());
                    return true;
                }
            }
        }
    }

    /**
     * Whether every connection runs through the kernel's CM already, without a port to open: KERNEL, or AUTO once it
     * chose the kernel's ({@link CallerKernelCm} needs nothing else of the conductor).
     */
    synchronized boolean kernelChosen()
    {
        return switch (cm.options().connectionManager())
        {
            case KERNEL -> true;
            case USERSPACE -> false;
            case AUTO -> autoChoseKernel != null;
        };
    }

    /** {@return which CM runs the connections, and why, for a trace} */
    synchronized String text()
    {
        return switch (cm.options().connectionManager())
        {
            case USERSPACE -> "the userspace CM";
            case KERNEL -> "the kernel's CM (KERNEL)";
            case AUTO -> autoChoseKernel != null ? "the kernel's CM (AUTO: " + autoChoseKernel + ")" : "the userspace CM (AUTO)";
        };
    }

    /** Where the kernel's CM will be opened: for a test that needs a device or an ABI version no kernel here has. */
    synchronized void kernelCmFiles(final Path device, final Path abiVersionFile)
    {
        kernelCmDevice = device;
        kernelCmAbiVersion = abiVersionFile;
    }

    /** The kernel's CM, opened on first use; its descriptor joins the conductor's poll set. */
    synchronized KernelCm kernelCm(final String call) throws RdmaCmException
    {
        if (closed)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "the RdmaCm is closed", true);
        }
        if (kernelCm == null)
        {
            final KernelCm opened = KernelCm.open(cm, conductor::contextOf, call, kernelCmDevice, kernelCmAbiVersion);
            kernelCm = opened;
            if (agent.isLoopThread())
            {
                agent.watchKernelCm(opened);
            }
            else
            {
                agent.submit(loop -> loop.watchKernelCm(opened));
            }
        }
        return kernelCm;
    }

    /** After the conductor ended: the kernel's CM closed, which destroys every kernel id still on it. */
    void close()
    {
        final KernelCm kernel;
        synchronized (this)
        {
            closed = true;
            kernel = kernelCm;
            kernelCm = null;
        }
        if (kernel != null)
        {
            kernel.close();
        }
    }
}

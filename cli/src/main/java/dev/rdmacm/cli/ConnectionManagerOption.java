package dev.rdmacm.cli;

import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.RdmaCm;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --cm userspace|kernel|auto}: which connection manager runs the command's connections (picocli
 * mixin), {@link RdmaCm.Options#connectionManager()}.
 */
final class ConnectionManagerOption
{
    @Option(names = "--cm", paramLabel = "CM", defaultValue = "auto",
        description = "the connection manager: userspace (this stack's own CM on umad), kernel (the kernel's CM through "
            + "/dev/infiniband/rdma_cm) or auto, the userspace CM where it can own the port's CM class and the kernel's where "
            + "ib_cm holds it (default ${DEFAULT-VALUE})")
    String name = "auto";

    /**
     * The options of the command's {@link RdmaCm}: the defaults, with this connection manager.
     *
     * @throws CommandLine.ParameterException naming the value and the three there are.
     */
    RdmaCm.Options options(final CommandLine.Model.CommandSpec spec)
    {
        return RdmaCm.Options.builder().connectionManager(parse(spec, name)).build();
    }

    /**
     * {@code --cm}'s value {@code name} as a {@link ConnectionManager}.
     *
     * @throws CommandLine.ParameterException naming the value and the three there are.
     */
    static ConnectionManager parse(final CommandLine.Model.CommandSpec spec, final String name)
    {
        for (final ConnectionManager manager : ConnectionManager.values())
        {
            if (manager.text().equalsIgnoreCase(name))
            {
                return manager;
            }
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "--cm '" + name + "': expected userspace, kernel or auto");
    }
}

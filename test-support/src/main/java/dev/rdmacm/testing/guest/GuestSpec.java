package dev.rdmacm.testing.guest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link KernelGuest} boots: its name (in the host-side run directory and the guest's hostname),
 * the kernel modules loaded before the topology is built, the topology, and its size.
 *
 * @param name          a short name: letters, digits and dashes
 * @param modules       loaded with {@code modprobe -a} inside the guest, in this order
 * @param topology      namespaces, links and rxe devices, built after the modules
 * @param memoryMib     guest RAM; the JVM in the guest takes a quarter of it by default
 * @param cpus          virtual CPUs (each one a host thread under TCG)
 * @param bootLimit     from QEMU's start to the end of the boot job
 * @param lifetime      the guest powers itself off when idle past this uptime, so that a host JVM
 *                      killed outright (no shutdown hook) leaves no guest running
 * @param qemuArguments appended to QEMU's command line, e.g. a {@code -netdev socket} joining two guests
 */
public record GuestSpec(
    String name, List<String> modules, GuestTopology topology, int memoryMib, int cpus, Duration bootLimit, Duration lifetime,
    List<String> qemuArguments)
{
    /**
     * The RDMA stack with the kernel's own CM: rxe, verbs, umad, rdma_ucm (which loads ib_cm and rdma_cm);
     * and for the kernel-CM comparison's netdevs bonding (ADDR_CHANGE on a failover), bridge (the bond's
     * peer) and sch_mqprio (a netdev's {@code num_tc}).
     */
    public static final List<String> KERNEL_CM_MODULES =
        List.of("rdma_rxe", "ib_uverbs", "rdma_ucm", "ib_umad", "veth", "8021q", "bonding", "bridge", "sch_mqprio");
    /**
     * The RDMA stack without ib_cm: a userspace agent can then register the CM class on umad, which
     * fails once ib_cm holds it.
     */
    public static final List<String> USERSPACE_CM_MODULES = List.of("rdma_rxe", "ib_uverbs", "ib_umad", "veth", "8021q");

    public GuestSpec
    {
        if (!name.matches("[a-z0-9][a-z0-9-]{0,30}"))
        {
            throw new IllegalArgumentException("guest name '" + name + "': lower-case letters, digits and dashes, at most 31");
        }
        for (final String module : modules)
        {
            if (!module.matches("[a-z0-9_-]+"))
            {
                throw new IllegalArgumentException("module name '" + module + "': letters, digits, '_' and '-' only");
            }
        }
        if (memoryMib < 512 || cpus < 1)
        {
            throw new IllegalArgumentException("a guest needs at least 512 MiB and one CPU, not " + memoryMib + " MiB and " + cpus);
        }
        modules = List.copyOf(modules);
        qemuArguments = List.copyOf(qemuArguments);
    }

    /** Two CPUs, 3 GiB, the kernel CM's modules, no topology, two minutes to boot, twenty to live. */
    public static GuestSpec named(final String name)
    {
        return new GuestSpec(name, KERNEL_CM_MODULES, GuestTopology.create(), 3072, 2, Duration.ofMinutes(2), Duration.ofMinutes(20), List.of());
    }

    public GuestSpec topology(final GuestTopology newTopology)
    {
        return new GuestSpec(name, modules, newTopology, memoryMib, cpus, bootLimit, lifetime, qemuArguments);
    }

    public GuestSpec modules(final List<String> newModules)
    {
        return new GuestSpec(name, newModules, topology, memoryMib, cpus, bootLimit, lifetime, qemuArguments);
    }

    public GuestSpec size(final int newMemoryMib, final int newCpus)
    {
        return new GuestSpec(name, modules, topology, newMemoryMib, newCpus, bootLimit, lifetime, qemuArguments);
    }

    public GuestSpec lifetime(final Duration newLifetime)
    {
        return new GuestSpec(name, modules, topology, memoryMib, cpus, bootLimit, newLifetime, qemuArguments);
    }

    public GuestSpec qemuArguments(final String... arguments)
    {
        final List<String> all = new ArrayList<>(qemuArguments);
        all.addAll(List.of(arguments));
        return new GuestSpec(name, modules, topology, memoryMib, cpus, bootLimit, lifetime, all);
    }
}

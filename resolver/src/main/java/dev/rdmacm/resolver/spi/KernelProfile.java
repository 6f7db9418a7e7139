package dev.rdmacm.resolver.spi;

/**
 * Which kernel's RDMA CM rules the resolver follows where kernels differ. The default is the kernel
 * the comparison suite runs ({@code SoftRoceGuestsTest}: Debian 12's 6.1 under QEMU); the others
 * are read from the kernel source and have not been compared with a running kernel.
 */
public enum KernelProfile
{
    /**
     * Linux 6.1 (Debian 12), compared field by field with the running kernel: a RoCE path's packet
     * lifetime is {@code CMA_IBOE_PACKET_LIFETIME} 18.
     */
    LINUX_6_1(18, true),

    /**
     * Mainline after 6.1, as read in its source: {@code CMA_IBOE_PACKET_LIFETIME} is 16. Not checked
     * against a running kernel.
     */
    MAINLINE(16, false);

    private final int iboePacketLifetime;
    private final boolean checked;

    KernelProfile(final int iboePacketLifetime, final boolean checked)
    {
        this.iboePacketLifetime = iboePacketLifetime;
        this.checked = checked;
    }

    /** {@return the default: the kernel the comparison suite checks} */
    public static KernelProfile defaultProfile()
    {
        return LINUX_6_1;
    }

    /** {@return {@code CMA_IBOE_PACKET_LIFETIME}: a RoCE path's packet lifetime when no ACK timeout was set} */
    public int iboePacketLifetime()
    {
        return iboePacketLifetime;
    }

    /** {@return whether the comparison suite checks this profile against a running kernel} */
    public boolean checkedAgainstARunningKernel()
    {
        return checked;
    }

    /**
     * The profile named {@code text} as the CLI spells it ({@code linux-6.1}, {@code mainline}).
     *
     * @param text the name.
     * @return the profile.
     * @throws IllegalArgumentException naming the text and the names there are.
     */
    public static KernelProfile parse(final String text)
    {
        for (final KernelProfile profile : values())
        {
            if (profile.cliName().equals(text))
            {
                return profile;
            }
        }
        throw new IllegalArgumentException("kernel profile '" + text + "': expected linux-6.1 or mainline");
    }

    /** {@return the profile's name on the command line and in {@link #parse}: {@code linux-6.1} or {@code mainline}} */
    public String cliName()
    {
        return this == LINUX_6_1 ? "linux-6.1" : "mainline";
    }
}

package dev.rdmacm.protocol.capture;

/**
 * Whether a captured MAD left or reached this port. Recorded in the ERF header's capture-interface
 * bits ({@code erf.flags.cap} in Wireshark), as libtrace reads direction from ERF: interface 0 is
 * outgoing, interface 1 incoming. The LRH's SLID and DLID tell the same story to a reader who does
 * not look at the ERF header.
 */
public enum CaptureDirection
{
    SENT(0),
    RECEIVED(1);

    private final int erfInterface;

    CaptureDirection(final int erfInterface)
    {
        this.erfInterface = erfInterface;
    }

    /** The value of the two capture-interface bits of the ERF flags byte. */
    public int erfInterface()
    {
        return erfInterface;
    }
}

package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;

/**
 * The constants that make a MAD a Communication Management MAD (IBA 12.6): management class 0x07,
 * class version 2, and the 232-byte message that follows the 24-byte common header.
 * <pre>
 *   0                                24                                                  256
 *  +----------------------------------+----------------------------------------------------+
 *  | MAD common header ({@link MadHeader}) | CM message: REQ, REP, REJ... (232 bytes)     |
 *  +----------------------------------+----------------------------------------------------+
 *                                      ^ MESSAGE_OFFSET
 * </pre>
 * Every message flyweight in this package wraps the message part; {@link CmMessage#encodeMad} writes
 * the header too, so a whole 256-byte MAD is one call.
 */
public final class CmMad
{
    /** Management class of the Communication Manager (umad_types.h {@code UMAD_CLASS_CM}). */
    public static final int MGMT_CLASS = 0x07;
    /** The CM class version this stack speaks (ib_cm_types.h {@code IB_MCLASS_CM_VER_2}). */
    public static final int CLASS_VERSION = 2;

    /** Every CM message except ClassPortInfo travels in a Send (umad_types.h {@code UMAD_METHOD_SEND}). */
    public static final int METHOD_SEND = 0x03;

    /** Where the CM message starts inside a MAD: right after the common header. */
    public static final int MESSAGE_OFFSET = MadHeader.LENGTH;
    /** Every CM message, private data included, fills the rest of the MAD. */
    public static final int MESSAGE_LENGTH = MadHeader.MAD_SIZE - MESSAGE_OFFSET;

    private CmMad()
    {
    }
}

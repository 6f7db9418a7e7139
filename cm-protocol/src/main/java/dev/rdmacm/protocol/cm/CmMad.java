package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;

/**
 * The constants that make a MAD a Communication Management MAD (IBA 12.6): management class
 * {@link ManagementClass#COMM_MGT} (0x07), class version 2, method {@link MadMethod#SEND} for every
 * message but ClassPortInfo, and the 232-byte message that follows the 24-byte common header.
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
    /** The CM class version this stack speaks (ib_cm_types.h {@code IB_MCLASS_CM_VER_2}). */
    public static final int CLASS_VERSION = 2;

    /** Where the CM message starts inside a MAD: right after the common header. */
    public static final int MESSAGE_OFFSET = MadHeader.LENGTH;
    /** Every CM message, private data included, fills the rest of the MAD. */
    public static final int MESSAGE_LENGTH = MadHeader.MAD_SIZE - MESSAGE_OFFSET;

    private CmMad()
    {
    }
}

package dev.rdmacm.protocol.mad;

/**
 * The general services interface: every port's QP1, where the SA, the CM and the other GMP classes
 * send their MADs (IBA 13.5.1). The one place the project spells its QP number and well-known Q_Key.
 */
public final class Gsi
{
    /** The GSI's QP: QP1 on every port. */
    public static final int QPN = 1;
    /** The well-known Q_Key of QP1 (IBA 13.5.3.2); bit 31 set, so a privileged (controlled) Q_Key. */
    public static final long QKEY = 0x8001_0000L;

    private Gsi()
    {
    }
}

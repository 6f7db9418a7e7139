/**
 * The tests' real peers (gcc, tshark, host commands) and the QEMU guest kit. Test scope only: every
 * module's tests use it on the class path.
 */
module dev.rdmacm.testing
{
    requires transitive org.agrona;
    requires transitive org.junit.jupiter.api;
    requires org.junit.platform.engine;
    requires org.junit.platform.launcher;

    exports dev.rdmacm.testing;
    exports dev.rdmacm.testing.guest;
}

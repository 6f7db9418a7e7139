/**
 * The FFM binding of libibverbs and the device, port, GID and P_Key model read from libibverbs or sysfs.
 * Needs {@code --enable-native-access=dev.rdmacm.verbs}.
 */
module dev.rdmacm.verbs
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;

    exports dev.rdmacm.verbs;
    exports dev.rdmacm.verbs.sysfs;
}

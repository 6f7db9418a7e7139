/**
 * The one libc binding, through FFM: errno and its exceptions, descriptors, poll and eventfd, sockets,
 * namespaces, sysctl and proc files. Needs {@code --enable-native-access=dev.rdmacm.libc}.
 */
module dev.rdmacm.libc
{
    exports dev.rdmacm.libc;
}

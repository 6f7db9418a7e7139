/**
 * The kernel's RDMA CM driven through {@code /dev/infiniband/rdma_cm}: the ucma ABI
 * ({@code rdma_user_cm.h}) as flyweights, the device as a resource, and the moves of a verbs QP with the
 * kernel's attributes. No librdmacm. Needs {@code --enable-native-access=dev.rdmacm.libc,dev.rdmacm.verbs}.
 */
module dev.rdmacm.ucma
{
    requires transitive dev.rdmacm.libc;
    requires transitive dev.rdmacm.protocol;
    requires transitive dev.rdmacm.addrinfo;
    requires transitive dev.rdmacm.verbs;

    // a back-end of the CM, as umad and ib-cm are: rdma-cm's conductor will drive it
    exports dev.rdmacm.ucma to dev.rdmacm.cm;
    exports dev.rdmacm.ucma.abi to dev.rdmacm.cm;
}

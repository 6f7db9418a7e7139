/*
 * LD_PRELOAD shim: one fake InfiniBand verbs device, so that librdmacm's ucma_init() succeeds on a
 * machine without RDMA hardware and rdma_getaddrinfo() runs its whole path for real (reference
 * rdmacm-semantics.md section 1.3). librdmacm reaches these four entry points through its PLT.
 * rdma_create_id is not interposed, so librdmacm's AF_IB probe fails and af_ib_support stays 0.
 */
#include <endian.h>
#include <infiniband/verbs.h>
#include <string.h>

static struct ibv_device fake_device = {
    .node_type = IBV_NODE_CA,
    .transport_type = IBV_TRANSPORT_IB,
    .name = "fake_ib0",
    .dev_name = "uverbs0",
    .dev_path = "/sys/class/infiniband_verbs/uverbs0",
    .ibdev_path = "/sys/class/infiniband/fake_ib0",
};

static struct ibv_device *fake_list[2] = { &fake_device, NULL };

struct ibv_device **ibv_get_device_list(int *num_devices)
{
    if (num_devices)
        *num_devices = 1;
    return fake_list;
}

void ibv_free_device_list(struct ibv_device **list)
{
    (void) list;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
    (void) device;
    return htobe64(0x0002c90300000001ULL);
}

int ibv_get_device_index(struct ibv_device *device)
{
    (void) device;
    return 0;
}

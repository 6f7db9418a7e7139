/*
 * LD_PRELOAD shim: one fake InfiniBand verbs device, so that librdmacm's ucma_init() succeeds on a
 * machine without RDMA hardware and rdma_getaddrinfo() runs its whole path for real (reference
 * rdmacm-semantics.md section 1.3). librdmacm reaches these four entry points through its PLT.
 * With FAKE_AFIB=1 the shim also answers librdmacm's AF_IB probe (rdma_create_id with a NULL channel
 * and RDMA_PS_IB, rdma_bind_addr, rdma_destroy_id on that id), so af_ib_support becomes 1; every other
 * call goes to the real librdmacm. Without it the probe fails and af_ib_support stays 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <endian.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <stdlib.h>
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

static struct rdma_cm_id *probe_id;

static int fake_af_ib(void)
{
    const char *value = getenv("FAKE_AFIB");

    return value && strcmp(value, "1") == 0;
}

int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
                   enum rdma_port_space ps)
{
    int (*real)(struct rdma_event_channel *, struct rdma_cm_id **, void *, enum rdma_port_space);

    if (fake_af_ib() && !channel && ps == RDMA_PS_IB && !probe_id) {
        probe_id = calloc(1, sizeof(*probe_id));
        probe_id->ps = ps;
        probe_id->context = context;
        *id = probe_id;
        return 0;
    }
    real = dlsym(RTLD_NEXT, "rdma_create_id");
    return real(channel, id, context, ps);
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
    int (*real)(struct rdma_cm_id *, struct sockaddr *);

    if (id && id == probe_id)
        return 0;
    real = dlsym(RTLD_NEXT, "rdma_bind_addr");
    return real(id, addr);
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
    int (*real)(struct rdma_cm_id *);

    if (id && id == probe_id) {
        free(probe_id);
        probe_id = NULL;
        return 0;
    }
    real = dlsym(RTLD_NEXT, "rdma_destroy_id");
    return real(id);
}

/*
 * The multicast oracle: real librdmacm over the real kernel RDMA CM. Each line of standard input is
 * one case, "NAME BIND GROUP FLAGS" (FLAGS 0 full member, 1 send-only full member): a fresh
 * RDMA_PS_UDP id, with no QP (so librdmacm attaches nothing), is bound to BIND and joins GROUP with
 * rdma_join_multicast_ex; the outcome is printed as "NAME key=value" lines, then the id leaves and
 * tries to leave a group it never joined. GIDs are printed as 32 hex digits.
 */
#include <rdma/rdma_cma.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

static int to_sockaddr(const char *text, struct sockaddr_storage *out)
{
    struct addrinfo hints, *res;
    memset(&hints, 0, sizeof(hints));
    hints.ai_flags = AI_NUMERICHOST;
    if (getaddrinfo(text, NULL, &hints, &res))
        return -1;
    memcpy(out, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    return 0;
}

static void print_gid(const char *name, const char *key, const uint8_t *raw)
{
    printf("%s %s=", name, key);
    for (int i = 0; i < 16; i++)
        printf("%02x", raw[i]);
    printf("\n");
}

static void run_case(const char *name, const char *bind, const char *group, int flags)
{
    struct sockaddr_storage source, target, never;
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *id;
    struct rdma_cm_event *event;

    if (!channel || rdma_create_id(channel, &id, NULL, RDMA_PS_UDP)) {
        printf("%s setup_errno=%d\n", name, errno);
        return;
    }
    to_sockaddr(bind, &source);
    to_sockaddr(group, &target);
    if (rdma_bind_addr(id, (struct sockaddr *)&source)) {
        printf("%s bind_errno=%d\n", name, errno);
        goto out;
    }
    struct rdma_cm_join_mc_attr_ex attr;
    memset(&attr, 0, sizeof(attr));
    attr.comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
    attr.join_flags = flags;
    attr.addr = (struct sockaddr *)&target;
    if (rdma_join_multicast_ex(id, &attr, NULL)) {
        printf("%s join_errno=%d\n", name, errno);
    } else {
        struct pollfd pfd = { .fd = channel->fd, .events = POLLIN };
        if (poll(&pfd, 1, 10000) != 1 || rdma_get_cm_event(channel, &event)) {
            printf("%s event=none\n", name);
        } else {
            struct ibv_ah_attr *ah = &event->param.ud.ah_attr;
            printf("%s event=%s\n", name, rdma_event_str(event->event));
            printf("%s status=%d\n", name, event->status);
            if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
                print_gid(name, "dgid", ah->grh.dgid.raw);
                printf("%s flow_label=%u\n", name, ah->grh.flow_label);
                printf("%s sgid_index=%u\n", name, ah->grh.sgid_index);
                printf("%s hop_limit=%u\n", name, ah->grh.hop_limit);
                printf("%s traffic_class=%u\n", name, ah->grh.traffic_class);
                printf("%s dlid=%u\n", name, ah->dlid);
                printf("%s sl=%u\n", name, ah->sl);
                printf("%s src_path_bits=%u\n", name, ah->src_path_bits);
                printf("%s static_rate=%u\n", name, ah->static_rate);
                printf("%s is_global=%u\n", name, ah->is_global);
                printf("%s port_num=%u\n", name, ah->port_num);
                printf("%s qp_num=%u\n", name, event->param.ud.qp_num);
                printf("%s qkey=%u\n", name, event->param.ud.qkey);
            }
            rdma_ack_cm_event(event);
        }
        printf("%s leave_errno=%d\n", name, rdma_leave_multicast(id, (struct sockaddr *)&target) ? errno : 0);
    }
    to_sockaddr("239.255.255.254", &never);
    printf("%s leave_never_errno=%d\n", name, rdma_leave_multicast(id, (struct sockaddr *)&never) ? errno : 0);
out:
    rdma_destroy_id(id);
    rdma_destroy_event_channel(channel);
}

int main(void)
{
    char name[64], bind[64], group[64];
    int flags;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (scanf("%63s %63s %63s %d", name, bind, group, &flags) == 4)
        run_case(name, bind, group, flags);
    return 0;
}

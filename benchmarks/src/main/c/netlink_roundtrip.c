/*
 * The C baseline of ResolverBenchmark: the same raw NETLINK_ROUTE round trips, in a loop, in the
 * network namespace it is started in (ip netns exec NAME ./netlink_roundtrip DST IFINDEX ITERATIONS).
 * Prints "route <ns/op>" (RTM_GETROUTE) and "resolution <ns/op>" (RTM_GETROUTE + RTM_GETLINK +
 * RTM_GETNEIGH, what a resolution with a valid neighbour sends).
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/neighbour.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char rx[65536];
static unsigned seq;

static void add_attr(struct nlmsghdr *n, int type, const void *data, int len)
{
    struct rtattr *rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
    rta->rta_type = type;
    rta->rta_len = RTA_LENGTH(len);
    memcpy(RTA_DATA(rta), data, len);
    n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

static void transact(int fd, struct nlmsghdr *n)
{
    n->nlmsg_seq = ++seq;
    if (send(fd, n, n->nlmsg_len, 0) < 0) { perror("send"); exit(1); }
    ssize_t len = recv(fd, rx, sizeof rx, 0);
    if (len < 0) { perror("recv"); exit(1); }
    struct nlmsghdr *reply = (struct nlmsghdr *)rx;
    if (reply->nlmsg_type == NLMSG_ERROR && ((struct nlmsgerr *)NLMSG_DATA(reply))->error != 0) {
        fprintf(stderr, "netlink error %d\n", ((struct nlmsgerr *)NLMSG_DATA(reply))->error);
        exit(1);
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: %s DST IFINDEX ITERATIONS\n", argv[0]); return 2; }
    struct in_addr dst;
    if (inet_pton(AF_INET, argv[1], &dst) != 1) { fprintf(stderr, "bad IPv4 address %s\n", argv[1]); return 2; }
    int ifindex = atoi(argv[2]);
    long iterations = atol(argv[3]);
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    struct sockaddr_nl local = { .nl_family = AF_NETLINK };
    if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof local) < 0) { perror("netlink"); return 1; }

    char route_buf[256], link_buf[256], neigh_buf[256];
    memset(route_buf, 0, sizeof route_buf);
    struct nlmsghdr *route = (struct nlmsghdr *)route_buf;
    route->nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    route->nlmsg_type = RTM_GETROUTE;
    route->nlmsg_flags = NLM_F_REQUEST;
    struct rtmsg *rtm = NLMSG_DATA(route);
    rtm->rtm_family = AF_INET;
    rtm->rtm_dst_len = 32;
    add_attr(route, RTA_DST, &dst, 4);
    /* the question the resolver asks (issue 29): routed as uid 0, as the kernel CM's own lookup */
    unsigned uid = 0;
    add_attr(route, RTA_UID, &uid, 4);

    memset(link_buf, 0, sizeof link_buf);
    struct nlmsghdr *link = (struct nlmsghdr *)link_buf;
    link->nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
    link->nlmsg_type = RTM_GETLINK;
    link->nlmsg_flags = NLM_F_REQUEST;
    ((struct ifinfomsg *)NLMSG_DATA(link))->ifi_index = ifindex;
    unsigned mask = 0;
    add_attr(link, IFLA_EXT_MASK, &mask, 4);

    memset(neigh_buf, 0, sizeof neigh_buf);
    struct nlmsghdr *neigh = (struct nlmsghdr *)neigh_buf;
    neigh->nlmsg_len = NLMSG_LENGTH(sizeof(struct ndmsg));
    neigh->nlmsg_type = RTM_GETNEIGH;
    neigh->nlmsg_flags = NLM_F_REQUEST;
    struct ndmsg *ndm = NLMSG_DATA(neigh);
    ndm->ndm_family = AF_INET;
    ndm->ndm_ifindex = ifindex;
    add_attr(neigh, NDA_DST, &dst, 4);

    for (long i = 0; i < iterations / 10; i++) transact(fd, route);
    double start = now_ns();
    for (long i = 0; i < iterations; i++) transact(fd, route);
    printf("route %.0f\n", (now_ns() - start) / iterations);

    start = now_ns();
    for (long i = 0; i < iterations; i++) { transact(fd, route); transact(fd, link); transact(fd, neigh); }
    printf("resolution %.0f\n", (now_ns() - start) / iterations);
    close(fd);
    return 0;
}

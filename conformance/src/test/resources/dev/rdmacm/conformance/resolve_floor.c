/*
 * The floor of an exact userspace rdma_resolve_addr on RoCE (issue 32): the system calls it cannot leave out,
 * in C, with nothing else. The kernel's CM looks the route up inside the caller's write and returns a route
 * error from that write, so an exact resolver in userspace asks the kernel in the call, once per call: one
 * RTM_GETROUTE round trip (sendto, recvfrom), and, for a route without a hop limit metric, one pread of the
 * namespace's ip_default_ttl (nothing notifies a write to it). No answer can be shared between calls that
 * come one after another, since each must see the kernel's state at its own call.
 *
 * usage: resolve_floor DST CALLS
 * Prints, after CALLS / 10 untimed calls: "floor route+ttl CALLS MS" and "floor route CALLS MS", the time of
 * CALLS calls of each kind, in ms (CLOCK_MONOTONIC).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char reply[65536];
static char ttl[16];

/* the question the resolver asks: the destination, routed as uid 0 as the kernel CM's own lookup; every part is
   4-byte aligned, so the struct is the message as sent */
struct route_request {
    struct nlmsghdr header;
    struct rtmsg route;
    struct rtattr destination_attribute;
    struct in_addr destination;
    struct rtattr uid_attribute;
    __u32 uid;
};

static void route(int fd, struct route_request *request)
{
    request->header.nlmsg_seq++;
    if (sendto(fd, request, sizeof *request, 0, NULL, 0) < 0) { perror("sendto RTM_GETROUTE"); exit(1); }
    if (recvfrom(fd, reply, sizeof reply, 0, NULL, NULL) < 0) { perror("recvfrom RTM_GETROUTE"); exit(1); }
    const struct nlmsghdr *answer = (const struct nlmsghdr *)reply;
    if (answer->nlmsg_type != RTM_NEWROUTE) {
        fprintf(stderr, "RTM_GETROUTE answered with type %d (error %d)\n", answer->nlmsg_type,
            answer->nlmsg_type == NLMSG_ERROR ? ((const struct nlmsgerr *)NLMSG_DATA(answer))->error : 0);
        exit(1);
    }
}

static void default_ttl(int fd)
{
    if (pread(fd, ttl, sizeof ttl, 0) <= 0) { perror("pread ip_default_ttl"); exit(1); }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: %s DST CALLS\n", argv[0]); return 2; }
    struct in_addr dst;
    if (inet_pton(AF_INET, argv[1], &dst) != 1) { fprintf(stderr, "not an IPv4 address: %s\n", argv[1]); return 2; }
    const long calls = atol(argv[2]);
    if (calls <= 0) { fprintf(stderr, "CALLS must be positive: %s\n", argv[2]); return 2; }

    const int netlink = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    struct sockaddr_nl local = { .nl_family = AF_NETLINK };
    if (netlink < 0 || bind(netlink, (struct sockaddr *)&local, sizeof local) < 0) { perror("NETLINK_ROUTE"); return 1; }
    const int sysctl = open("/proc/sys/net/ipv4/ip_default_ttl", O_RDONLY | O_CLOEXEC);
    if (sysctl < 0) { perror("open /proc/sys/net/ipv4/ip_default_ttl"); return 1; }

    struct route_request request = {
        .header = { .nlmsg_len = sizeof request, .nlmsg_type = RTM_GETROUTE, .nlmsg_flags = NLM_F_REQUEST },
        .route = { .rtm_family = AF_INET, .rtm_dst_len = 32 },
        .destination_attribute = { .rta_len = RTA_LENGTH(sizeof dst), .rta_type = RTA_DST },
        .destination = dst,
        .uid_attribute = { .rta_len = RTA_LENGTH(sizeof(__u32)), .rta_type = RTA_UID },
        .uid = 0,
    };

    for (long i = 0; i < calls / 10; i++) { route(netlink, &request); default_ttl(sysctl); }
    double start = now_ms();
    for (long i = 0; i < calls; i++) { route(netlink, &request); default_ttl(sysctl); }
    printf("floor route+ttl %ld %.1f\n", calls, now_ms() - start);
    start = now_ms();
    for (long i = 0; i < calls; i++) route(netlink, &request);
    printf("floor route %ld %.1f\n", calls, now_ms() - start);
    close(sysctl);
    close(netlink);
    return 0;
}

/*
 * rdma-core HEAD's rdma_resolve_addrinfo, rdma_query_addrinfo and rdma_write_cm_event (RDMACM_1.4) as an
 * oracle: for each case read from stdin, what librdmacm 65 hands the application. Test code, compiled at
 * test time against Debian sid's librdmacm-dev 65 headers (AddrinfoOracle) and run inside the kernel
 * guest under sid's own loader and libc, with bookworm's libibverbs and rxe provider.
 *
 * Input, one case per line:  NAME STEP STEP ...   (a fresh channel and id per case, destroyed after it)
 *   resolve,NODE,SERVICE,FLAGS,FAMILY  rdma_resolve_addrinfo; "-" for a NULL node or service, FLAGS "-"
 *                                      for NULL hints, else ai_flags in hex with ai_family FAMILY
 *   gai,NODE,SERVICE,FLAGS,FAMILY      rdma_getaddrinfo with the same inputs, its list printed as query's
 *   query                              rdma_query_addrinfo, the list printed and freed
 *   write,EVENT,STATUS,ARG             rdma_write_cm_event
 *   event                              poll(2) the channel's fd for 100 ms, then rdma_get_cm_event and ack
 *   bind,ADDR                          rdma_bind_addr to the numeric ADDR (the id leaves IDLE)
 *   busy,NAME                          another thread resolves NAME, whose DNS query this program answers
 *                                      itself on 127.0.0.1:53 (resolv.conf points there): once the query
 *                                      arrived, rdma_resolve_addrinfo and rdma_query_addrinfo here, then
 *                                      NXDOMAIN to every query until the other thread returns, then its
 *                                      outcome
 * Output: NAME N.key=value, N the step's index, ending with NAME end=1. "kernel write_cm_event_errno=E"
 * first: what this kernel answers a USER event written on a fresh id (0 when it accepts it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *nullable(const char *text)
{
    return strcmp(text, "-") ? text : NULL;
}

static void print_sockaddr(const char *name, int step, const char *key, const struct sockaddr *sa)
{
    char text[INET6_ADDRSTRLEN] = "";
    if (!sa) {
        printf("%s %d.%s=-\n", name, step, key);
    } else if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
        printf("%s %d.%s=%s#%u\n", name, step, key, text, ntohs(in->sin_port));
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
        printf("%s %d.%s=%s#%u%%%u\n", name, step, key, text, ntohs(in6->sin6_port), in6->sin6_scope_id);
    } else {
        printf("%s %d.%s=family%d\n", name, step, key, sa->sa_family);
    }
}

static void print_list(const char *name, int step, const struct rdma_addrinfo *list)
{
    int n = 0;
    for (const struct rdma_addrinfo *ai = list; ai; ai = ai->ai_next, n++) {
        char key[32];
        printf("%s %d.%d.flags=0x%x\n", name, step, n, ai->ai_flags);
        printf("%s %d.%d.family=%d\n", name, step, n, ai->ai_family);
        printf("%s %d.%d.qp_type=%d\n", name, step, n, ai->ai_qp_type);
        printf("%s %d.%d.port_space=0x%x\n", name, step, n, ai->ai_port_space);
        snprintf(key, sizeof(key), "%d.src", n);
        print_sockaddr(name, step, key, ai->ai_src_addr);
        snprintf(key, sizeof(key), "%d.dst", n);
        print_sockaddr(name, step, key, ai->ai_dst_addr);
        printf("%s %d.%d.src_canonname=%s\n", name, step, n, ai->ai_src_canonname ? ai->ai_src_canonname : "-");
        printf("%s %d.%d.dst_canonname=%s\n", name, step, n, ai->ai_dst_canonname ? ai->ai_dst_canonname : "-");
        printf("%s %d.%d.route_len=%zu\n", name, step, n, ai->ai_route_len);
        printf("%s %d.%d.connect_len=%zu\n", name, step, n, ai->ai_connect_len);
    }
    printf("%s %d.entries=%d\n", name, step, n);
}

/* "resolve,NODE,SERVICE,FLAGS,FAMILY" into its parts; hints NULL for FLAGS "-". */
static int parse_inputs(char *step, char **node, char **service, struct rdma_addrinfo *hints, int *with_hints)
{
    char *save, *kind = strtok_r(step, ",", &save), *n = strtok_r(NULL, ",", &save);
    char *s = strtok_r(NULL, ",", &save), *f = strtok_r(NULL, ",", &save), *fam = strtok_r(NULL, ",", &save);
    if (!kind || !n || !s || !f || !fam)
        return -1;
    *node = (char *)nullable(n);
    *service = (char *)nullable(s);
    memset(hints, 0, sizeof(*hints));
    *with_hints = strcmp(f, "-") != 0;
    if (*with_hints) {
        hints->ai_flags = (int)strtol(f, NULL, 16);
        hints->ai_family = atoi(fam);
    }
    return 0;
}

static void print_call(const char *name, int step, const char *call, int ret)
{
    printf("%s %d.%s=%d\n", name, step, call, ret);
    printf("%s %d.errno=%d\n", name, step, ret == -1 ? errno : 0); /* an EAI code leaves errno as it was */
}

struct busy_resolve {
    struct rdma_cm_id *id;
    const char *node;
    int ret;
    int err;
    int done; /* read and written with __atomic builtins */
};

static void *resolve_in_thread(void *arg)
{
    struct busy_resolve *r = arg;
    r->ret = rdma_resolve_addrinfo(r->id, r->node, NULL, NULL);
    r->err = r->ret ? errno : 0;
    __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* The DNS server: waits for a query, then answers it and every later one with NXDOMAIN. */
static int open_dns(void)
{
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons(53)};
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&at, sizeof(at)))
        return -1;
    return fd;
}

static int answer_nxdomain(int fd, int timeout_ms)
{
    unsigned char packet[512];
    struct sockaddr_storage from;
    socklen_t from_len = sizeof(from);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    ssize_t n;
    if (poll(&p, 1, timeout_ms) != 1)
        return 0;
    n = recvfrom(fd, packet, sizeof(packet), 0, (struct sockaddr *)&from, &from_len);
    if (n < 12)
        return 0;
    packet[2] = 0x81 | (packet[2] & 0x01 ? 0x01 : 0x00); /* QR, opcode 0, RD kept */
    packet[3] = 0x83;                                    /* RA, RCODE 3 NXDOMAIN */
    sendto(fd, packet, (size_t)n, 0, (struct sockaddr *)&from, from_len);
    return 1;
}

static void busy(const char *name, int step, struct rdma_cm_id *id, const char *node)
{
    struct busy_resolve r = {.id = id, .node = node};
    struct pollfd p;
    pthread_t thread;
    struct rdma_addrinfo *info = NULL;
    int dns = open_dns(), ret;
    if (dns < 0) {
        printf("%s %d.dns_server=%d\n", name, step, errno);
        return;
    }
    pthread_create(&thread, NULL, resolve_in_thread, &r);
    p.fd = dns;
    p.events = POLLIN;
    printf("%s %d.query_arrived=%d\n", name, step, poll(&p, 1, 10000));
    ret = rdma_resolve_addrinfo(id, node, NULL, NULL);
    printf("%s %d.second_resolve=%d\n", name, step, ret);
    printf("%s %d.second_errno=%d\n", name, step, ret ? errno : 0);
    ret = rdma_query_addrinfo(id, &info);
    printf("%s %d.query_while_pending=%d\n", name, step, ret);
    printf("%s %d.query_errno=%d\n", name, step, ret ? errno : 0);
    while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE))
        answer_nxdomain(dns, 50);
    pthread_join(thread, NULL);
    close(dns);
    printf("%s %d.first_resolve=%d\n", name, step, r.ret);
    printf("%s %d.first_errno=%d\n", name, step, r.err);
}

static void event(const char *name, int step, struct rdma_event_channel *channel)
{
    struct pollfd p = {.fd = channel->fd, .events = POLLIN};
    struct rdma_cm_event *e;
    int ready = poll(&p, 1, 100);
    printf("%s %d.readable=%d\n", name, step, ready == 1);
    if (ready != 1)
        return;
    if (rdma_get_cm_event(channel, &e)) {
        printf("%s %d.get_errno=%d\n", name, step, errno);
        return;
    }
    printf("%s %d.event=%s\n", name, step, rdma_event_str(e->event));
    printf("%s %d.status=%d\n", name, step, e->status);
    if (e->event == RDMA_CM_EVENT_USER)
        printf("%s %d.arg=0x%llx\n", name, step, (unsigned long long)e->param.arg);
    rdma_ack_cm_event(e);
}

static void run_case(const char *name, char *steps)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *id;
    char *save, *step;
    int index = 0;
    if (!channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP)) {
        printf("%s setup_errno=%d\n%s end=1\n", name, errno, name);
        return;
    }
    for (step = strtok_r(steps, " \n", &save); step; step = strtok_r(NULL, " \n", &save), index++) {
        char *node, *service;
        struct rdma_addrinfo hints, *info = NULL;
        int with_hints;
        if (!strncmp(step, "resolve,", 8) || !strncmp(step, "gai,", 4)) {
            int gai = step[0] == 'g';
            if (parse_inputs(step, &node, &service, &hints, &with_hints)) {
                printf("%s %d.bad_step=1\n", name, index);
                continue;
            }
            if (gai) {
                int ret = rdma_getaddrinfo(node, service, with_hints ? &hints : NULL, &info);
                print_call(name, index, "gai", ret);
                if (!ret) {
                    print_list(name, index, info);
                    rdma_freeaddrinfo(info);
                }
            } else {
                print_call(name, index, "resolve", rdma_resolve_addrinfo(id, node, service, with_hints ? &hints : NULL));
            }
        } else if (!strcmp(step, "query")) {
            int ret = rdma_query_addrinfo(id, &info);
            print_call(name, index, "query", ret);
            if (!ret) {
                print_list(name, index, info);
                rdma_freeaddrinfo(info);
            }
        } else if (!strncmp(step, "write,", 6)) {
            int type, status;
            unsigned long long arg;
            sscanf(step + 6, "%d,%d,%llx", &type, &status, &arg);
            print_call(name, index, "write", rdma_write_cm_event(id, (enum rdma_cm_event_type)type, status, arg));
        } else if (!strncmp(step, "bind,", 5)) {
            struct sockaddr_storage address;
            struct addrinfo numeric = {.ai_flags = AI_NUMERICHOST}, *found;
            if (getaddrinfo(step + 5, NULL, &numeric, &found)) {
                printf("%s %d.bad_step=1\n", name, index);
                continue;
            }
            memcpy(&address, found->ai_addr, found->ai_addrlen);
            freeaddrinfo(found);
            print_call(name, index, "bind", rdma_bind_addr(id, (struct sockaddr *)&address));
        } else if (!strcmp(step, "event")) {
            event(name, index, channel);
        } else if (!strncmp(step, "busy,", 5)) {
            busy(name, index, id, step + 5);
        } else {
            printf("%s %d.bad_step=1\n", name, index);
        }
    }
    rdma_destroy_id(id);
    rdma_destroy_event_channel(channel);
    printf("%s end=1\n", name);
}

static void probe_kernel(void)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *id;
    if (!channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP)) {
        printf("kernel setup_errno=%d\n", errno);
        return;
    }
    printf("kernel write_cm_event_errno=%d\n", rdma_write_cm_event(id, RDMA_CM_EVENT_USER, 0, 0) ? errno : 0);
    rdma_destroy_id(id);
    rdma_destroy_event_channel(channel);
}

int main(void)
{
    char line[1024];
    setvbuf(stdout, NULL, _IOLBF, 0);
    probe_kernel();
    while (fgets(line, sizeof(line), stdin)) {
        char *space = strchr(line, ' ');
        if (!space)
            continue;
        *space = 0;
        run_case(line, space + 1);
    }
    return 0;
}

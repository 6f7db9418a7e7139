/*
 * The physical-limit baseline of the SA client benchmark (issue 15): a raw ibsim client in C that
 * sends SubnAdmGet(PathRecord) MADs straight over ibsim's UDP protocol (no libibumad, no umad2sim),
 * keeps a fixed number of queries in flight and reports the rate and its own CPU per query.
 *
 * It speaks the protocol measured in shared/reference/ibsim-opensm.md, the same one our IbsimTransport
 * speaks: a CONNECT on ibsim's ctl port with the data socket's UDP port as the client id, 288-byte
 * sim_requests on ibsim's data port ctl+1+clientid, responses matched on the TID's low 48 bits (ibsim
 * overwrites bits 63..48 with the client index).
 *
 * usage: ibsim_path_client HOST CTL_PORT NODE SM_LID WINDOW WARMUP QUERIES SGID_GUID DGID_GUID...
 *   GIDs are link-local (fe80::/64) with the given port GUIDs, in hex; destination i is
 *   DGID_GUID[i % count]. Every response must be a GetResp with status 0 and the DGID asked for.
 * prints one line: "queries N wall_s W rate_per_s R cpu_us_per_query C timeouts 0 user_us_per_query U"
 *   (C is user + system time, U the user part alone)
 * exit status 0, 1 on bad usage or a socket error, 2 when a response is lost (1 s) or wrong.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SIM_MAGIC 0xdeadbeefu
#define SIM_CTL_CONNECT 1u
#define SIM_CTL_DISCONNECT 2u
#define SIM_CTL_SIZE 80
#define SIM_CTL_DATA 16
#define SIM_CLIENT_INFO_SIZE 44
#define SIM_REQUEST_SIZE 288
#define SIM_REQUEST_MAD 32
#define MAD_SIZE 256
#define SIM_STATUS_BOUNCED 110

/* MAD, SA header and PathRecord offsets within the MAD (IBA 13.4.3, 15.2.1, 15.2.5.16) */
#define MAD_BASE_VERSION 0
#define MAD_CLASS 1
#define MAD_CLASS_VERSION 2
#define MAD_METHOD 3
#define MAD_STATUS 4
#define MAD_TID 8
#define MAD_ATTRIBUTE 16
#define SA_COMPONENT_MASK 48
#define SA_DATA 56
#define PR_DGID (SA_DATA + 8)
#define PR_SGID (SA_DATA + 24)
#define PR_REVERSIBLE_NUMB_PATH (SA_DATA + 49)

#define CLASS_SUBN_ADM 0x03
#define METHOD_GET 0x01
#define METHOD_GET_RESP 0x81
#define ATTR_PATH_RECORD 0x0035
/* DGID | SGID | Reversible | NumbPath, what PathQuery.byGids sets */
#define COMPONENTS 0x180cull
#define TID_MASK 0x0000ffffffffffffull
#define LINK_LOCAL 0xfe80000000000000ull
#define LOSS_MILLIS 1000

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static double user_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    v = htobe64(v);
    memcpy(p, &v, 8);
}

static uint64_t get_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return be64toh(v);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    v = htole32(v);
    memcpy(p, &v, 4);
}

static uint32_t get_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return le32toh(v);
}

static int udp_socket(struct sockaddr_in *bound)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        die("socket");
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    struct sockaddr_in any = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0)
        die("bind");
    socklen_t len = sizeof(*bound);
    if (getsockname(fd, (struct sockaddr *)bound, &len) < 0)
        die("getsockname");
    return fd;
}

/* CONNECT as NODE; the data socket must be bound first, ibsim connects to it. Returns the client index. */
static uint32_t connect_client(int ctl, const struct sockaddr_in *ibsim, uint16_t data_port, const char *node)
{
    uint8_t msg[SIM_CTL_SIZE] = { 0 };
    put_le32(msg, SIM_MAGIC);
    put_le32(msg + 8, SIM_CTL_CONNECT);
    put_le32(msg + 12, SIM_CLIENT_INFO_SIZE);
    put_le32(msg + SIM_CTL_DATA, data_port);
    strncpy((char *)msg + SIM_CTL_DATA + 12, node, 31);
    if (sendto(ctl, msg, sizeof(msg), 0, (const struct sockaddr *)ibsim, sizeof(*ibsim)) != sizeof(msg))
        die("sendto ctl");
    struct pollfd p = { .fd = ctl, .events = POLLIN };
    if (poll(&p, 1, 2000) != 1) {
        fprintf(stderr, "ibsim_path_client: no CONNECT reply from ibsim within 2 s\n");
        exit(1);
    }
    if (recv(ctl, msg, sizeof(msg), 0) != sizeof(msg))
        die("recv ctl");
    if (get_le32(msg + 8) != SIM_CTL_CONNECT) {
        fprintf(stderr, "ibsim_path_client: ibsim refused CONNECT as %s (reply type %u)\n", node, get_le32(msg + 8));
        exit(1);
    }
    return get_le32(msg + SIM_CTL_DATA);
}

/* ibsim keeps a fixed number of client slots: DISCONNECT frees ours on every exit after CONNECT */
static int ctl_fd = -1;
static struct sockaddr_in ctl_peer;
static uint32_t client_index;

static void disconnect_client(void)
{
    uint8_t msg[SIM_CTL_SIZE] = { 0 };
    put_le32(msg, SIM_MAGIC);
    put_le32(msg + 4, client_index);
    put_le32(msg + 8, SIM_CTL_DISCONNECT);
    if (sendto(ctl_fd, msg, sizeof(msg), 0, (const struct sockaddr *)&ctl_peer, sizeof(ctl_peer)) != sizeof(msg))
        perror("ibsim_path_client: DISCONNECT");
}

static void build_query(uint8_t *request, int sm_lid, uint64_t sgid_guid, uint64_t dgid_guid, uint64_t tid)
{
    memset(request, 0, SIM_REQUEST_SIZE);
    uint16_t dlid = htons(sm_lid);
    memcpy(request, &dlid, 2);           /* dlid: LID big-endian, then 00 00; slid 0: ibsim fills it in */
    uint32_t qp1 = htonl(1);
    memcpy(request + 8, &qp1, 4);        /* dqp */
    memcpy(request + 12, &qp1, 4);       /* sqp */
    put_be64(request + 24, MAD_SIZE);
    uint8_t *mad = request + SIM_REQUEST_MAD;
    mad[MAD_BASE_VERSION] = 1;
    mad[MAD_CLASS] = CLASS_SUBN_ADM;
    mad[MAD_CLASS_VERSION] = 2;
    mad[MAD_METHOD] = METHOD_GET;
    put_be64(mad + MAD_TID, tid);
    mad[MAD_ATTRIBUTE] = ATTR_PATH_RECORD >> 8;
    mad[MAD_ATTRIBUTE + 1] = ATTR_PATH_RECORD & 0xff;
    put_be64(mad + SA_COMPONENT_MASK, COMPONENTS);
    put_be64(mad + PR_DGID, LINK_LOCAL);
    put_be64(mad + PR_DGID + 8, dgid_guid);
    put_be64(mad + PR_SGID, LINK_LOCAL);
    put_be64(mad + PR_SGID + 8, sgid_guid);
    mad[PR_REVERSIBLE_NUMB_PATH] = 0x80 | 1;
}

int main(int argc, char **argv)
{
    if (argc < 10) {
        fprintf(stderr, "usage: %s HOST CTL_PORT NODE SM_LID WINDOW WARMUP QUERIES SGID_GUID DGID_GUID...\n", argv[0]);
        return 1;
    }
    struct sockaddr_in ibsim = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[2])) };
    if (inet_pton(AF_INET, argv[1], &ibsim.sin_addr) != 1) {
        fprintf(stderr, "ibsim_path_client: HOST %s is not an IPv4 address\n", argv[1]);
        return 1;
    }
    const char *node = argv[3];
    int sm_lid = atoi(argv[4]);
    long window = atol(argv[5]), warmup = atol(argv[6]), queries = atol(argv[7]);
    uint64_t sgid = strtoull(argv[8], NULL, 16);
    int destinations = argc - 9;
    uint64_t *dgids = calloc(destinations, sizeof(*dgids));
    for (int i = 0; i < destinations; i++)
        dgids[i] = strtoull(argv[9 + i], NULL, 16);
    if (window < 1 || window > 4096 || queries < 1 || warmup < 0 || sm_lid < 1) {
        fprintf(stderr, "ibsim_path_client: WINDOW must be 1..4096, QUERIES >= 1, WARMUP >= 0, SM_LID >= 1\n");
        return 1;
    }

    struct sockaddr_in ctl_addr, data_addr;
    int ctl = udp_socket(&ctl_addr);
    int data = udp_socket(&data_addr);
    uint32_t index = connect_client(ctl, &ibsim, ntohs(data_addr.sin_port), node);
    ctl_fd = ctl;
    ctl_peer = ibsim;
    client_index = index;
    atexit(disconnect_client);
    struct sockaddr_in ibsim_data = ibsim;
    ibsim_data.sin_port = htons(atoi(argv[2]) + 1 + index);
    if (connect(data, (struct sockaddr *)&ibsim_data, sizeof(ibsim_data)) < 0)
        die("connect data");

    /* the destination of each TID in flight, in slot (TID - 1) % WINDOW; a slot is reused once answered */
    uint64_t *asked = calloc(window, sizeof(*asked));
    uint8_t *busy = calloc(window, 1);
    uint8_t request[SIM_REQUEST_SIZE], response[SIM_REQUEST_SIZE];
    long total = warmup + queries, sent = 0, received = 0;
    double wall_start = 0, cpu_start = 0, user_start = 0;
    struct pollfd p = { .fd = data, .events = POLLIN };
    if (warmup == 0) {
        wall_start = now();
        cpu_start = cpu_seconds();
        user_start = user_seconds();
    }
    while (received < total) {
        while (sent < total && !busy[sent % window]) {
            uint64_t dgid = dgids[sent % destinations];
            build_query(request, sm_lid, sgid, dgid, sent + 1);
            asked[sent % window] = dgid;
            busy[sent % window] = 1;
            if (send(data, request, sizeof(request), 0) != sizeof(request))
                die("send");
            sent++;
        }
        ssize_t n = recv(data, response, sizeof(response), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (poll(&p, 1, LOSS_MILLIS) != 1) {
                fprintf(stderr, "ibsim_path_client: lost: %ld of %ld answered, none for %d ms\n", received, sent, LOSS_MILLIS);
                return 2;
            }
            continue;
        }
        if (n != SIM_REQUEST_SIZE) {
            fprintf(stderr, "ibsim_path_client: datagram of %zd bytes\n", n);
            return 2;
        }
        const uint8_t *mad = response + SIM_REQUEST_MAD;
        uint32_t status;
        memcpy(&status, response + 16, 4);
        uint64_t tid = get_be64(mad + MAD_TID) & TID_MASK;
        uint16_t mad_status = (mad[MAD_STATUS] << 8) | mad[MAD_STATUS + 1];
        long slot = (long)((tid - 1) % window);
        if (ntohl(status) == SIM_STATUS_BOUNCED || mad[MAD_METHOD] != METHOD_GET_RESP || mad_status != 0
            || tid < 1 || tid > (uint64_t)sent || !busy[slot] || get_be64(mad + PR_DGID + 8) != asked[slot]) {
            fprintf(stderr, "ibsim_path_client: bad answer %ld: sim status %u, method 0x%02x, MAD status 0x%04x, "
                "TID %llu, DGID guid 0x%llx\n", received + 1, ntohl(status), mad[MAD_METHOD], mad_status,
                (unsigned long long)tid, (unsigned long long)get_be64(mad + PR_DGID + 8));
            return 2;
        }
        busy[slot] = 0;
        received++;
        if (received == warmup) {
            wall_start = now();
            cpu_start = cpu_seconds();
            user_start = user_seconds();
        }
    }
    double wall = now() - wall_start, cpu = cpu_seconds() - cpu_start, user = user_seconds() - user_start;
    printf("queries %ld wall_s %.6f rate_per_s %.1f cpu_us_per_query %.3f timeouts 0 user_us_per_query %.3f\n", queries, wall,
        queries / wall, cpu * 1e6 / queries, user * 1e6 / queries);
    free(asked);
    free(busy);
    free(dgids);
    return 0;
}

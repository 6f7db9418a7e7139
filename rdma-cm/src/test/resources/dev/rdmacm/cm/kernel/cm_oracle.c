/*
 * The kernel RDMA CM as an oracle: for each case read from stdin, what the real librdmacm hands the
 * application after rdma_resolve_addr and rdma_resolve_route. Test code, compiled at test time
 * (KernelCmOracle) and run inside the kernel guest.
 *
 * Input, one case per line:  NAME DST SRC TOS TIMEOUT_MS OPTIONS
 *   SRC "-" for none, TOS "-" for unset; DST and SRC are numeric, a port goes in as ADDR#PORT, a
 *   scope as ADDR%IFNAME; an AF_IB address (struct sockaddr_ib) as ib:GID[/PKEY[/SID[/SID_MASK]]]
 *   (P_Key 0xffff, Service ID and mask 0 unless given). OPTIONS is "-" or a comma-separated list:
 *     ps=ib / ps=udp        the case's id in RDMA_PS_IB / RDMA_PS_UDP instead of RDMA_PS_TCP;
 *     reuse / afonly        RDMA_OPTION_ID_REUSEADDR / RDMA_OPTION_ID_AFONLY on the case's id;
 *     ack=N                 RDMA_OPTION_ID_ACK_TIMEOUT N on the case's id;
 *     hold=ADDR#PORT        another id, bound there with rdma_bind_addr before the case runs;
 *     holdreuse / holdafonly  the options of that other id;
 *     ibpath / ibpathflags0   after ADDR_RESOLVED, RDMA_OPTION_IB_PATH with one fixed ibv_path_data
 *                           (flags 0x2b, or 0) instead of rdma_resolve_route;
 *     failneigh=IFNAME      "ip neigh replace DST dev IFNAME nud failed" just before rdma_resolve_addr.
 * Output, one field per line: NAME key=value, in a fixed order, ending with NAME end=1. With CM_ORACLE_TIMES=FILE in
 * the environment, each case's time ("NAME MS", a line each) goes to FILE; with CM_ORACLE_PRIME, the neighbours of the
 * cases that expect an answer are resolved first, all at once (prime).
 *
 * "cm_oracle cmtime N DST TIMEOUT_MS" instead times rdma-core cmtime's first steps for N ids on one
 * channel, each step for all ids before the next: create id, resolve addr (until every
 * ADDR_RESOLVED), resolve route (until every ROUTE_RESOLVED), destroy id. It prints
 * "cmtime STEP_us=TOTAL" per step, or "cmtime error=..." when an id fails.
 *
 * "cm_oracle removal DST TIMEOUT_MS" resolves DST on one id, prints "removal ready=1", then waits
 * (at most 60 s) for the next event of that id, which the test causes by removing its device, and
 * prints it as "removal event=..." and "removal status=...", then acks it and destroys the id.
 *
 * "cm_oracle failover BOND_PEER BOND_OWN STILL_PEER MARKER_PEER TIMEOUT_MS" holds five ids on one
 * channel: "resolved" (resolve_addr to BOND_PEER), "bound" (rdma_bind_addr to BOND_OWN), "still"
 * (resolve_addr to STILL_PEER), "marker" (resolve_addr to MARKER_PEER) and "idle" (created only). It
 * prints "failover ready=1"; then for each line the test writes on stdin (after it has failed a bond
 * over) it resolves the route of a fresh marker id, whose ROUTE_RESOLVED comes through the kernel CM's
 * ordered workqueue after every event the failover queued there, and prints what each id got until
 * then: "failover ROUND.NAME=EVENT:STATUS[,EVENT:STATUS]" or "=none", then "failover ROUND.end=1".
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <infiniband/ib.h>
#include <infiniband/sa.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ib:GID[/PKEY[/SID[/SID_MASK]]] into a sockaddr_ib; -1 when it does not parse. */
static int parse_ib_address(const char *text, struct sockaddr_storage *out)
{
    char gid[64];
    const char *slash = strchr(text, '/');
    size_t length = slash ? (size_t)(slash - text) : strlen(text);
    struct sockaddr_ib *sib = (struct sockaddr_ib *)out;
    unsigned long long sid = 0, mask = 0;
    unsigned int pkey = 0xffff;
    if (length >= sizeof(gid))
        return -1;
    memcpy(gid, text, length);
    gid[length] = 0;
    memset(out, 0, sizeof(*out));
    sib->sib_family = AF_IB;
    if (inet_pton(AF_INET6, gid, &sib->sib_addr) != 1)
        return -1;
    if (slash && sscanf(slash + 1, "%x/%llx/%llx", &pkey, &sid, &mask) < 1)
        return -1;
    sib->sib_pkey = htons((uint16_t)pkey);
    sib->sib_sid = htobe64(sid);
    sib->sib_sid_mask = htobe64(mask);
    return 0;
}

static int parse_address(const char *text, struct sockaddr_storage *out)
{
    char host[128];
    const char *port = "0";
    const char *hash = strchr(text, '#');
    size_t length = hash ? (size_t)(hash - text) : strlen(text);
    struct addrinfo hints, *found;
    if (!strncmp(text, "ib:", 3))
        return parse_ib_address(text + 3, out);
    if (length >= sizeof(host))
        return -1;
    memcpy(host, text, length);
    host[length] = 0;
    if (hash)
        port = hash + 1;
    memset(&hints, 0, sizeof(hints));
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    hints.ai_family = AF_UNSPEC;
    if (getaddrinfo(host, port, &hints, &found))
        return -1;
    memset(out, 0, sizeof(*out));
    memcpy(out, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    return 0;
}

static void print_sockaddr(const char *name, const char *key, struct sockaddr *sa)
{
    char text[INET6_ADDRSTRLEN] = "-";
    int port = 0;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)sa)->sin_addr, text, sizeof(text));
        port = ntohs(((struct sockaddr_in *)sa)->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)sa)->sin6_addr, text, sizeof(text));
        port = ntohs(((struct sockaddr_in6 *)sa)->sin6_port);
    } else if (sa->sa_family == AF_IB) {
        struct sockaddr_ib *sib = (struct sockaddr_ib *)sa;
        inet_ntop(AF_INET6, &sib->sib_addr, text, sizeof(text));
        port = (int)(be64toh(sib->sib_sid) & 0xffff); /* ucma_get_port: the Service ID's low 16 bits */
        printf("%s %s_sid=0x%016llx\n%s %s_sid_mask=0x%016llx\n%s %s_sib_pkey=0x%04x\n", name, key,
            (unsigned long long)be64toh(sib->sib_sid), name, key, (unsigned long long)be64toh(sib->sib_sid_mask), name,
            key, ntohs(sib->sib_pkey));
    }
    printf("%s %s=%s\n%s %s_port=%d\n", name, key, text, name, key, port);
}

static void print_gid(const char *name, const char *key, const union ibv_gid *gid)
{
    char text[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, gid->raw, text, sizeof(text));
    printf("%s %s=%s\n", name, key, text);
}

/* Waits for the next event on the channel; prints it; returns its type, or -1 when none came. */
static int await_event(const char *name, const char *step, struct rdma_event_channel *channel, int timeout_ms)
{
    struct pollfd fd = { .fd = channel->fd, .events = POLLIN };
    struct rdma_cm_event *event;
    int type;
    if (poll(&fd, 1, timeout_ms + 5000) != 1 || rdma_get_cm_event(channel, &event)) {
        printf("%s %s_event=NONE\n", name, step);
        return -1;
    }
    type = event->event;
    printf("%s %s_event=%s\n%s %s_status=%d\n", name, step, rdma_event_str(event->event), name, step, event->status);
    rdma_ack_cm_event(event);
    return type;
}

static void print_route(const char *name, struct rdma_cm_id *id)
{
    struct ibv_sa_path_rec *p = id->route.path_rec;
    printf("%s num_paths=%d\n", name, id->route.num_paths);
    if (id->route.num_paths < 1 || !p)
        return;
    print_gid(name, "path_dgid", &p->dgid);
    print_gid(name, "path_sgid", &p->sgid);
    printf("%s dlid=%u\n%s slid=%u\n%s raw_traffic=%d\n%s flow_label=%u\n%s hop_limit=%u\n%s traffic_class=%u\n",
        name, ntohs(p->dlid), name, ntohs(p->slid), name, p->raw_traffic, name, ntohl(p->flow_label), name, p->hop_limit,
        name, p->traffic_class);
    printf("%s reversible=%d\n%s numb_path=%u\n%s pkey=0x%04x\n%s sl=%u\n%s mtu_selector=%u\n%s mtu=%u\n",
        name, p->reversible, name, p->numb_path, name, ntohs(p->pkey), name, p->sl, name, p->mtu_selector, name, p->mtu);
    printf("%s rate_selector=%u\n%s rate=%u\n%s packet_life_time_selector=%u\n%s packet_life_time=%u\n%s preference=%u\n",
        name, p->rate_selector, name, p->rate, name, p->packet_life_time_selector, name, p->packet_life_time, name,
        p->preference);
}

static int has_option(const char *options, const char *option)
{
    size_t length = strlen(option);
    const char *at = options;
    while ((at = strstr(at, option))) {
        if ((at == options || at[-1] == ',') && (at[length] == 0 || at[length] == ',' || at[length] == '='))
            return 1;
        at += length;
    }
    return 0;
}

/* The value of OPTION=VALUE in options, copied into value; 0 when absent. */
static int option_value(const char *options, const char *option, char *value, size_t size)
{
    char key[32];
    const char *at;
    size_t length;
    snprintf(key, sizeof(key), "%s=", option);
    at = strstr(options, key);
    if (!at || (at != options && at[-1] != ','))
        return 0;
    at += strlen(key);
    length = strcspn(at, ",");
    if (length >= size)
        return 0;
    memcpy(value, at, length);
    value[length] = 0;
    return 1;
}

static void set_flag(const char *name, const char *key, struct rdma_cm_id *id, int option)
{
    int one = 1;
    if (rdma_set_option(id, RDMA_OPTION_ID, option, &one, sizeof(one)))
        printf("%s %s_errno=%d\n", name, key, errno);
}

/* RDMA_OPTION_IB_PATH with one path whose every field is set to a value the kernel would not choose. */
static int set_ib_path(const char *name, struct rdma_cm_id *id, uint32_t flags)
{
    struct ibv_path_data data;
    memset(&data, 0, sizeof(data));
    data.flags = flags;
    data.path.service_id = htobe64(0x1122334455667788ULL);
    memcpy(data.path.dgid.raw, id->route.addr.addr.ibaddr.dgid.raw, 16);
    memcpy(data.path.sgid.raw, id->route.addr.addr.ibaddr.sgid.raw, 16);
    data.path.dlid = htobe16(0x1234);
    data.path.slid = htobe16(0x5678);
    data.path.flowlabel_hoplimit = htobe32((0x12345u << 8) | 7);
    data.path.tclass = 0x20;
    data.path.reversible_numpath = 0x80 | 1;
    data.path.pkey = htobe16(0xffff);
    data.path.qosclass_sl = htobe16(5);
    data.path.mtu = (2 << 6) | 3;
    data.path.rate = (2 << 6) | 6;
    data.path.packetlifetime = (2 << 6) | 14;
    if (rdma_set_option(id, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, &data, sizeof(data))) {
        printf("%s ibpath_errno=%d\n", name, errno);
        return -1;
    }
    return 0;
}

static void run_case(const char *name, const char *dst_text, const char *src_text, const char *tos_text, int timeout_ms,
    const char *options)
{
    struct sockaddr_storage dst, src, held;
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *id = NULL, *holder = NULL;
    char value[160];
    enum rdma_port_space ps = RDMA_PS_TCP;
    if (option_value(options, "ps", value, sizeof(value)))
        ps = !strcmp(value, "ib") ? RDMA_PS_IB : !strcmp(value, "udp") ? RDMA_PS_UDP : RDMA_PS_TCP;
    if (!channel || rdma_create_id(channel, &id, NULL, ps)) {
        printf("%s setup_errno=%d\n%s end=1\n", name, errno, name);
        return;
    }
    if (parse_address(dst_text, &dst) || (strcmp(src_text, "-") && parse_address(src_text, &src))) {
        printf("%s parse_error=1\n%s end=1\n", name, name);
        goto out;
    }
    if (option_value(options, "hold", value, sizeof(value))) {
        if (parse_address(value, &held) || rdma_create_id(channel, &holder, NULL, RDMA_PS_TCP)) {
            printf("%s parse_error=1\n%s end=1\n", name, name);
            goto out;
        }
        if (has_option(options, "holdreuse"))
            set_flag(name, "holdreuse", holder, RDMA_OPTION_ID_REUSEADDR);
        if (has_option(options, "holdafonly"))
            set_flag(name, "holdafonly", holder, RDMA_OPTION_ID_AFONLY);
        if (rdma_bind_addr(holder, (struct sockaddr *)&held))
            printf("%s hold_errno=%d\n", name, errno);
    }
    if (has_option(options, "reuse"))
        set_flag(name, "reuse", id, RDMA_OPTION_ID_REUSEADDR);
    if (has_option(options, "afonly"))
        set_flag(name, "afonly", id, RDMA_OPTION_ID_AFONLY);
    if (option_value(options, "ack", value, sizeof(value))) {
        uint8_t ack = (uint8_t)atoi(value);
        if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &ack, sizeof(ack)))
            printf("%s ack_errno=%d\n", name, errno);
    }
    if (strcmp(tos_text, "-")) {
        uint8_t tos = (uint8_t)atoi(tos_text);
        if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)))
            printf("%s tos_errno=%d\n", name, errno);
    }
    if (option_value(options, "failneigh", value, sizeof(value))) {
        char command[384];
        snprintf(command, sizeof(command), "ip neigh replace %s dev %s nud failed", dst_text, value);
        if (system(command))
            printf("%s failneigh_error=1\n", name);
    }
    if (rdma_resolve_addr(id, strcmp(src_text, "-") ? (struct sockaddr *)&src : NULL, (struct sockaddr *)&dst, timeout_ms)) {
        printf("%s addr_errno=%d\n%s end=1\n", name, errno, name);
        goto out;
    }
    if (await_event(name, "addr", channel, timeout_ms) != RDMA_CM_EVENT_ADDR_RESOLVED) {
        printf("%s end=1\n", name);
        goto out;
    }
    printf("%s device=%s\n%s port_num=%u\n", name, id->verbs ? ibv_get_device_name(id->verbs->device) : "-", name, id->port_num);
    print_sockaddr(name, "src", rdma_get_local_addr(id));
    print_sockaddr(name, "dst", rdma_get_peer_addr(id));
    print_gid(name, "sgid", &id->route.addr.addr.ibaddr.sgid);
    print_gid(name, "dgid", &id->route.addr.addr.ibaddr.dgid);
    printf("%s addr_pkey=0x%04x\n", name, id->route.addr.addr.ibaddr.pkey);
    if (has_option(options, "ibpath") || has_option(options, "ibpathflags0")) {
        if (set_ib_path(name, id, has_option(options, "ibpath") ? 0x2b : 0) == 0 &&
            await_event(name, "route", channel, timeout_ms) == RDMA_CM_EVENT_ROUTE_RESOLVED)
            print_route(name, id);
        printf("%s end=1\n", name);
        goto out;
    }
    if (rdma_resolve_route(id, timeout_ms)) {
        printf("%s route_errno=%d\n%s end=1\n", name, errno, name);
        goto out;
    }
    if (await_event(name, "route", channel, timeout_ms) == RDMA_CM_EVENT_ROUTE_RESOLVED)
        print_route(name, id);
    printf("%s end=1\n", name);
out:
    if (holder)
        rdma_destroy_id(holder);
    rdma_destroy_id(id);
    rdma_destroy_event_channel(channel);
}

static long long now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Waits for n events of type expected on channel; returns 0, or -1 naming the first other event. */
static int await_all(struct rdma_event_channel *channel, int n, enum rdma_cm_event_type expected, int timeout_ms)
{
    struct pollfd fd = { .fd = channel->fd, .events = POLLIN };
    struct rdma_cm_event *event;
    while (n > 0) {
        if (poll(&fd, 1, timeout_ms + 5000) != 1 || rdma_get_cm_event(channel, &event)) {
            printf("cmtime error=no event while %d were missing\n", n);
            return -1;
        }
        if (event->event != expected) {
            printf("cmtime error=%s status %d\n", rdma_event_str(event->event), event->status);
            rdma_ack_cm_event(event);
            return -1;
        }
        rdma_ack_cm_event(event);
        n--;
    }
    return 0;
}

static int cmtime(int n, const char *dst_text, int timeout_ms)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id **ids = calloc(n, sizeof(*ids));
    struct sockaddr_storage dst;
    long long start;
    int i;
    if (!channel || !ids || parse_address(dst_text, &dst)) {
        printf("cmtime error=setup\n");
        return 1;
    }
    start = now_us();
    for (i = 0; i < n; i++)
        if (rdma_create_id(channel, &ids[i], NULL, RDMA_PS_TCP)) {
            printf("cmtime error=rdma_create_id errno %d\n", errno);
            return 1;
        }
    printf("cmtime create_id_us=%lld\n", now_us() - start);
    start = now_us();
    for (i = 0; i < n; i++)
        if (rdma_resolve_addr(ids[i], NULL, (struct sockaddr *)&dst, timeout_ms)) {
            printf("cmtime error=rdma_resolve_addr errno %d\n", errno);
            return 1;
        }
    if (await_all(channel, n, RDMA_CM_EVENT_ADDR_RESOLVED, timeout_ms))
        return 1;
    printf("cmtime resolve_addr_us=%lld\n", now_us() - start);
    start = now_us();
    for (i = 0; i < n; i++)
        if (rdma_resolve_route(ids[i], timeout_ms)) {
            printf("cmtime error=rdma_resolve_route errno %d\n", errno);
            return 1;
        }
    if (await_all(channel, n, RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_ms))
        return 1;
    printf("cmtime resolve_route_us=%lld\n", now_us() - start);
    start = now_us();
    for (i = 0; i < n; i++)
        rdma_destroy_id(ids[i]);
    printf("cmtime destroy_id_us=%lld\n", now_us() - start);
    free(ids);
    rdma_destroy_event_channel(channel);
    return 0;
}

static int removal(const char *dst_text, int timeout_ms)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *id = NULL;
    struct sockaddr_storage dst;
    if (!channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP) || parse_address(dst_text, &dst) ||
        rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, timeout_ms)) {
        printf("removal setup_errno=%d\n", errno);
        return 1;
    }
    if (await_event("removal", "addr", channel, timeout_ms) != RDMA_CM_EVENT_ADDR_RESOLVED)
        return 1;
    printf("removal ready=1\n");
    await_event("removal", "next", channel, 55000);
    rdma_destroy_id(id);
    rdma_destroy_event_channel(channel);
    return 0;
}

#define FAILOVER_IDS 5
static const char *failover_names[FAILOVER_IDS] = { "resolved", "bound", "still", "marker", "idle" };

/* The route of a fresh marker id (to dst), then every event until its ROUTE_RESOLVED, by id. */
static int failover_round(struct rdma_event_channel *channel, struct rdma_cm_id **ids, int round,
    struct sockaddr_storage *marker_dst, int timeout_ms)
{
    struct pollfd fd = { .fd = channel->fd, .events = POLLIN };
    char got[FAILOVER_IDS][256];
    struct rdma_cm_id *marker = NULL;
    struct rdma_cm_event *event;
    int i, routed = 0;
    memset(got, 0, sizeof(got));
    if (rdma_create_id(channel, &marker, NULL, RDMA_PS_TCP) ||
        rdma_resolve_addr(marker, NULL, (struct sockaddr *)marker_dst, timeout_ms)) {
        printf("failover %d.error=marker errno %d\n", round, errno);
        return -1;
    }
    while (!routed) {
        if (poll(&fd, 1, timeout_ms + 5000) != 1 || rdma_get_cm_event(channel, &event)) {
            printf("failover %d.error=no marker event\n", round);
            return -1;
        }
        if (event->id == marker) {
            if (event->event == RDMA_CM_EVENT_ADDR_RESOLVED && rdma_resolve_route(marker, timeout_ms)) {
                printf("failover %d.error=marker route errno %d\n", round, errno);
                rdma_ack_cm_event(event);
                return -1;
            }
            routed = event->event == RDMA_CM_EVENT_ROUTE_RESOLVED;
            if (event->event != RDMA_CM_EVENT_ADDR_RESOLVED && !routed) {
                printf("failover %d.error=marker %s\n", round, rdma_event_str(event->event));
                rdma_ack_cm_event(event);
                return -1;
            }
        } else {
            for (i = 0; i < FAILOVER_IDS; i++)
                if (event->id == ids[i]) {
                    size_t used = strlen(got[i]);
                    snprintf(got[i] + used, sizeof(got[i]) - used, "%s%s:%d", used ? "," : "",
                        rdma_event_str(event->event), event->status);
                }
        }
        rdma_ack_cm_event(event);
    }
    rdma_destroy_id(marker);
    for (i = 0; i < FAILOVER_IDS; i++)
        printf("failover %d.%s=%s\n", round, failover_names[i], got[i][0] ? got[i] : "none");
    printf("failover %d.end=1\n", round);
    return 0;
}

static int failover(const char *bond_peer, const char *bond_own, const char *still_peer, const char *marker_peer,
    int timeout_ms)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *ids[FAILOVER_IDS] = { 0 };
    struct sockaddr_storage peer, own, still, marker;
    char line[64];
    int i, round = 0;
    if (!channel || parse_address(bond_peer, &peer) || parse_address(bond_own, &own) ||
        parse_address(still_peer, &still) || parse_address(marker_peer, &marker)) {
        printf("failover setup_errno=%d\n", errno);
        return 1;
    }
    for (i = 0; i < FAILOVER_IDS; i++)
        if (rdma_create_id(channel, &ids[i], NULL, RDMA_PS_TCP)) {
            printf("failover setup_errno=%d\n", errno);
            return 1;
        }
    if (rdma_resolve_addr(ids[0], NULL, (struct sockaddr *)&peer, timeout_ms) ||
        await_event("failover", "resolved", channel, timeout_ms) != RDMA_CM_EVENT_ADDR_RESOLVED ||
        rdma_bind_addr(ids[1], (struct sockaddr *)&own) ||
        rdma_resolve_addr(ids[2], NULL, (struct sockaddr *)&still, timeout_ms) ||
        await_event("failover", "still", channel, timeout_ms) != RDMA_CM_EVENT_ADDR_RESOLVED ||
        rdma_resolve_addr(ids[3], NULL, (struct sockaddr *)&marker, timeout_ms) ||
        await_event("failover", "marker", channel, timeout_ms) != RDMA_CM_EVENT_ADDR_RESOLVED) {
        printf("failover setup_errno=%d\n", errno);
        return 1;
    }
    printf("failover ready=1\n");
    while (fgets(line, sizeof(line), stdin))
        if (failover_round(channel, ids, ++round, &marker, timeout_ms))
            return 1;
    for (i = 0; i < FAILOVER_IDS; i++)
        rdma_destroy_id(ids[i]);
    rdma_destroy_event_channel(channel);
    return 0;
}

/*
 * CM_ORACLE_PRIME: before the cases, every destination of a case that expects an answer (its timeout is 2000 ms or
 * more) resolved at once on one channel, each without a source or options, and the ids destroyed. Under TCG a
 * case's first contact with a neighbour took its whole timeout (eight of the matrix's cases 2 s each, one after
 * another); primed, those contacts overlap. A case that expects no answer (a silent peer) is left out: a neighbour
 * its priming had failed would answer it sooner, and differently.
 */
static void prime(char lines[][768], int n)
{
    struct rdma_event_channel *channel = rdma_create_event_channel();
    struct rdma_cm_id *ids[256];
    struct pollfd fd;
    char name[64], dst[160], src[160], tos[16], options[256];
    struct sockaddr_storage address;
    struct rdma_cm_event *event;
    int timeout_ms, count = 0, longest = 0, i;
    if (!channel)
        return;
    for (i = 0; i < n && count < 256; i++) {
        if (sscanf(lines[i], "%63s %159s %159s %15s %d %255s", name, dst, src, tos, &timeout_ms, options) != 6 || timeout_ms < 2000
            || !strncmp(dst, "ib:", 3) || parse_address(dst, &address) || rdma_create_id(channel, &ids[count], NULL, RDMA_PS_TCP))
            continue;
        if (rdma_resolve_addr(ids[count], NULL, (struct sockaddr *)&address, timeout_ms)) {
            rdma_destroy_id(ids[count]);
            continue;
        }
        longest = timeout_ms > longest ? timeout_ms : longest;
        count++;
    }
    fd.fd = channel->fd;
    fd.events = POLLIN;
    for (i = 0; i < count && poll(&fd, 1, longest + 5000) == 1 && !rdma_get_cm_event(channel, &event); i++)
        rdma_ack_cm_event(event);
    for (i = 0; i < count; i++)
        rdma_destroy_id(ids[i]);
    rdma_destroy_event_channel(channel);
}

int main(int argc, char **argv)
{
    static char lines[512][768];
    char name[64], dst[160], src[160], tos[16], options[256];
    int timeout_ms, n = 0, i;
    FILE *times;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 5 && !strcmp(argv[1], "cmtime"))
        return cmtime(atoi(argv[2]), argv[3], atoi(argv[4]));
    if (argc == 4 && !strcmp(argv[1], "removal"))
        return removal(argv[2], atoi(argv[3]));
    if (argc == 7 && !strcmp(argv[1], "failover"))
        return failover(argv[2], argv[3], argv[4], argv[5], atoi(argv[6]));
    times = getenv("CM_ORACLE_TIMES") ? fopen(getenv("CM_ORACLE_TIMES"), "w") : NULL;
    while (n < 512 && fgets(lines[n], sizeof(lines[n]), stdin))
        n++;
    if (getenv("CM_ORACLE_PRIME"))
        prime(lines, n);
    for (i = 0; i < n; i++) {
        if (sscanf(lines[i], "%63s %159s %159s %15s %d %255s", name, dst, src, tos, &timeout_ms, options) == 6) {
            long long start = now_us();
            run_case(name, dst, src, tos, timeout_ms, strcmp(options, "-") ? options : "");
            if (times)
                fprintf(times, "%s %lld\n", name, (now_us() - start) / 1000);
        }
    }
    if (times)
        fclose(times);
    return 0;
}

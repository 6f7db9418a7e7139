/*
 * TestSaOverUmad: a TEST DOUBLE of a Subnet Administrator, for Soft-RoCE guests. It is no SA: it
 * knows no fabric and answers every PathRecord Get with one made-up record. It exists so that a real
 * SubnAdmGet from a UD QP on one rxe device reaches QP1 of another through the kernel, and the answer
 * comes back the same way, with the retries, silences and wrong sources a test asks for.
 *
 * It registers the SA class (0x03, version 2) on the umad device of DEV port PORT, which the kernel
 * allows when no other agent holds it (RoCE ports have no kernel SA; ib_cm holds only the CM class).
 * Answers go back through the kernel's QP1 with a GRH to the requester's GID (RoCE has no LIDs), the
 * requester's QP and the GSI Q_Key 0x80010000, as an SA answers.
 *
 *   test_sa_over_umad --device DEV [--port N] [--sl N] [--resp-time-value N]
 *                     [--drop-first N] [--silent] [--wrong-source DEV2 [--wrong-sl N]]
 *
 *   ClassPortInfo Get     answered (RespTimeValue from --resp-time-value, no redirect), unless --silent
 *   PathRecord Get        answered with the record below, except:
 *     --silent            nothing is ever answered
 *     --drop-first N      the first N PathRecord Gets are not answered (the client's retries are)
 *     --wrong-source DEV2 the first PathRecord Get that would be answered is answered from QP1 of
 *                         DEV2 (another port, another GID) with SL --wrong-sl; the next (the client's
 *                         retry, same TID) from DEV, as it should be
 *   anything else         GetResp with status 0x000c (method/attribute not supported)
 *
 * The PathRecord: DGID and SGID of the request, LIDs 0, FlowLabel 0x5a5a5, HopLimit 64, TClass 0,
 * Reversible, NumbPath 1, P_Key 0xffff, SL --sl (3), MTU exactly 1024, rate exactly 10 Gb/s (3),
 * packet lifetime exactly 18, preference 0.
 *
 * Standard output, one line per event, flushed at once, for the test to assert on:
 *   ready device=DEV port=N agent=ID [wrong-source=DEV2 wrong-agent=ID]
 *   recv t=MICROSECONDS tid=0x.. method=0x.. attr=0x.. mask=0x.. qpn=N lid=N grh=G gid=HEX32 gid_index=N mad=HEX512
 *     (t on CLOCK_MONOTONIC, for the intervals between retries)
 *   drop tid=0x.. attr=0x.. reason=silent|drop-first
 *   send from=DEV tid=0x.. method=0x.. attr=0x.. status=0x.. qpn=N qkey=0x.. gid=HEX32 mad=HEX512
 *   error WHAT: TEXT         (then exit 1)
 */
#include <infiniband/umad.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include <time.h>

#define SA_CLASS 0x03
#define SA_CLASS_VERSION 2
#define METHOD_GET 0x01
#define METHOD_GET_RESP 0x81
#define ATTR_CLASS_PORT_INFO 0x0001
#define ATTR_PATH_RECORD 0x0035
#define GSI_QKEY 0x80010000u
#define MAD_SIZE 256
#define SA_DATA 56
#define STATUS_UNSUPPORTED_METHOD_ATTRIBUTE 0x000c

struct options {
    const char *device;
    int port;
    int sl;
    int resp_time_value;
    int drop_first;
    int silent;
    const char *wrong_device;
    int wrong_sl;
};

static void fail(const char *what, int err)
{
    printf("error %s: %s\n", what, strerror(err < 0 ? -err : err));
    exit(1);
}

static void hex(const uint8_t *bytes, int length)
{
    for (int i = 0; i < length; i++)
        printf("%02x", bytes[i]);
}

static long long monotonic_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static uint16_t be16_at(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint64_t be64_at(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return be64toh(v); }
static void put_be16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }

static int open_agent(const char *device, int port, int *agent)
{
    long methods[16 / sizeof(long)];
    memset(methods, 0, sizeof(methods));
    methods[0] = 1L << METHOD_GET;
    int fd = umad_open_port(device, port);
    if (fd < 0)
        fail("umad_open_port", fd);
    *agent = umad_register(fd, SA_CLASS, SA_CLASS_VERSION, 0, methods);
    if (*agent < 0)
        fail("umad_register (SA class 0x03 version 2: is another SA agent registered?)", *agent);
    return fd;
}

/* The answer's MAD: the request's header turned into a GetResp, its SA header kept, new data. */
static void answer_header(const uint8_t *request, uint8_t *answer, uint16_t status, int attribute_offset_words)
{
    memset(answer, 0, MAD_SIZE);
    memcpy(answer, request, 24);
    answer[3] = METHOD_GET_RESP;
    put_be16(answer + 4, status);
    put_be16(answer + 44, (uint16_t)attribute_offset_words);
    memcpy(answer + 48, request + 48, 8);
}

static void path_record(const uint8_t *request, uint8_t *answer, int sl)
{
    const uint8_t *template = request + SA_DATA;
    uint8_t *record = answer + SA_DATA;
    answer_header(request, answer, 0, 64 / 8);
    memcpy(record + 8, template + 8, 16);   /* DGID */
    memcpy(record + 24, template + 24, 16); /* SGID */
    /* RawTraffic 0, FlowLabel 0x5a5a5, HopLimit 64 */
    uint32_t flow = htobe32((0x5a5a5u << 8) | 64);
    memcpy(record + 44, &flow, 4);
    record[48] = 0;                          /* TClass */
    record[49] = 0x80 | 1;                   /* Reversible, NumbPath 1 */
    put_be16(record + 50, 0xffff);           /* P_Key */
    put_be16(record + 52, (uint16_t)(sl & 0xf)); /* QoSClass 0, SL */
    record[54] = (2 << 6) | 3;               /* MTU exactly 1024 */
    record[55] = (2 << 6) | 3;               /* rate exactly 10 Gb/s */
    record[56] = (2 << 6) | 18;              /* packet lifetime exactly 18 */
    record[57] = 0;                          /* preference */
}

static void class_port_info(const uint8_t *request, uint8_t *answer, int resp_time_value)
{
    uint8_t *cpi = answer + SA_DATA;
    answer_header(request, answer, 0, 72 / 8);
    cpi[0] = 1;                  /* BaseVersion */
    cpi[1] = SA_CLASS_VERSION;   /* ClassVersion */
    uint32_t resp = htobe32((uint32_t)resp_time_value & 0x1f);
    memcpy(cpi + 4, &resp, 4);   /* CapabilityMask2 0, RespTimeValue */
}

static void send_answer(const char *from, int fd, int agent, const void *request_umad, uint8_t *answer)
{
    void *umad = umad_alloc(1, umad_size() + MAD_SIZE);
    if (!umad)
        fail("umad_alloc", ENOMEM);
    /* Back where the request came from: its QP, LID (0 on RoCE) and, through the GRH, its GID. */
    memcpy(umad_get_mad_addr(umad), umad_get_mad_addr((void *)request_umad), sizeof(struct ib_mad_addr));
    struct ib_mad_addr *addr = umad_get_mad_addr(umad);
    addr->qkey = htobe32(GSI_QKEY);
    addr->hop_limit = 64;
    memcpy(umad_get_mad(umad), answer, MAD_SIZE);
    int rc = umad_send(fd, agent, umad, MAD_SIZE, 0, 0);
    if (rc < 0)
        fail("umad_send", rc);
    printf("send from=%s tid=0x%016llx method=0x%02x attr=0x%04x status=0x%04x qpn=%u qkey=0x%08x gid=", from,
        (unsigned long long)be64_at(answer + 8), answer[3], be16_at(answer + 16), be16_at(answer + 4),
        be32toh(addr->qpn), be32toh(addr->qkey));
    hex(addr->gid, 16);
    printf(" mad=");
    hex(answer, MAD_SIZE);
    printf("\n");
    umad_free(umad);
}

static void parse(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .port = 1, .sl = 3, .resp_time_value = 8, .wrong_sl = 7 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--silent")) { o->silent = 1; continue; }
        if (!v) { printf("error usage: %s needs a value\n", a); exit(2); }
        if (!strcmp(a, "--device")) o->device = v;
        else if (!strcmp(a, "--port")) o->port = atoi(v);
        else if (!strcmp(a, "--sl")) o->sl = atoi(v);
        else if (!strcmp(a, "--resp-time-value")) o->resp_time_value = atoi(v);
        else if (!strcmp(a, "--drop-first")) o->drop_first = atoi(v);
        else if (!strcmp(a, "--wrong-source")) o->wrong_device = v;
        else if (!strcmp(a, "--wrong-sl")) o->wrong_sl = atoi(v);
        else { printf("error usage: unknown option %s\n", a); exit(2); }
        i++;
    }
    if (!o->device) { printf("error usage: --device DEV is required\n"); exit(2); }
}

int main(int argc, char **argv)
{
    struct options o;
    setvbuf(stdout, NULL, _IOLBF, 0);
    parse(argc, argv, &o);
    if (umad_init() < 0)
        fail("umad_init", errno);
    int agent, wrong_agent = -1, wrong_fd = -1;
    int fd = open_agent(o.device, o.port, &agent);
    if (o.wrong_device)
        wrong_fd = open_agent(o.wrong_device, o.port, &wrong_agent);
    printf("ready device=%s port=%d agent=%d", o.device, o.port, agent);
    if (o.wrong_device)
        printf(" wrong-source=%s wrong-agent=%d", o.wrong_device, wrong_agent);
    printf("\n");

    void *umad = umad_alloc(1, umad_size() + MAD_SIZE);
    uint8_t answer[MAD_SIZE];
    int path_records = 0, wrong_sent = 0;
    for (;;) {
        int length = MAD_SIZE;
        int rc = umad_recv(fd, umad, &length, -1);
        if (rc < 0) {
            if (rc == -EINTR || rc == -EAGAIN || rc == -ETIMEDOUT)
                continue;
            fail("umad_recv", rc);
        }
        const uint8_t *mad = umad_get_mad(umad);
        struct ib_mad_addr *from = umad_get_mad_addr(umad);
        if (umad_status(umad) != 0) {
            /* a send of ours that failed in the kernel */
            printf("error send status %d\n", umad_status(umad));
            continue;
        }
        uint16_t attribute = be16_at(mad + 16);
        uint64_t tid = be64_at(mad + 8);
        printf("recv t=%lld tid=0x%016llx method=0x%02x attr=0x%04x mask=0x%016llx qpn=%u lid=%u grh=%d gid=",
            monotonic_us(), (unsigned long long)tid, mad[3], attribute, (unsigned long long)be64_at(mad + 48), be32toh(from->qpn),
            be16toh(from->lid), from->grh_present);
        hex(from->gid, 16);
        printf(" gid_index=%d mad=", from->gid_index);
        hex(mad, length < MAD_SIZE ? length : MAD_SIZE);
        printf("\n");
        if (o.silent) {
            printf("drop tid=0x%016llx attr=0x%04x reason=silent\n", (unsigned long long)tid, attribute);
            continue;
        }
        if (mad[3] == METHOD_GET && attribute == ATTR_CLASS_PORT_INFO) {
            class_port_info(mad, answer, o.resp_time_value);
            send_answer(o.device, fd, agent, umad, answer);
        } else if (mad[3] == METHOD_GET && attribute == ATTR_PATH_RECORD) {
            if (++path_records <= o.drop_first) {
                printf("drop tid=0x%016llx attr=0x%04x reason=drop-first\n", (unsigned long long)tid, attribute);
            } else if (wrong_fd >= 0 && !wrong_sent) {
                wrong_sent = 1;
                path_record(mad, answer, o.wrong_sl);
                send_answer(o.wrong_device, wrong_fd, wrong_agent, umad, answer);
            } else {
                path_record(mad, answer, o.sl);
                send_answer(o.device, fd, agent, umad, answer);
            }
        } else {
            answer_header(mad, answer, STATUS_UNSUPPORTED_METHOD_ATTRIBUTE, 0);
            send_answer(o.device, fd, agent, umad, answer);
        }
    }
}

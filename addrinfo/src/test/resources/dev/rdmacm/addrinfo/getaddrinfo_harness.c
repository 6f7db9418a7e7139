/*
 * Runs the real librdmacm rdma_getaddrinfo() for every case read from stdin and prints one canonical
 * line per case (format in GetAddrInfoCanonicalLine.java, which prints the same line for the Java
 * result).
 *
 * Input, one case per line, three TAB-separated fields: NODE, SERVICE, HINTS.
 * NODE and SERVICE are "(null)" for NULL, otherwise the string itself (possibly empty).
 * HINTS is "(null)" or FLAGS:FAMILY:QP:PS:SRC:DST, numbers in C syntax, SRC/DST the raw sockaddr
 * bytes in hex or "-" for none.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>

#define NULL_TOKEN "(null)"

static unsigned char *parse_hex(const char *hex, socklen_t *len)
{
    size_t n = strlen(hex) / 2;
    unsigned char *bytes;

    *len = 0;
    if (strcmp(hex, "-") == 0)
        return NULL;
    bytes = calloc(1, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        unsigned int b;
        sscanf(hex + 2 * i, "%2x", &b);
        bytes[i] = (unsigned char) b;
    }
    *len = (socklen_t) n;
    return bytes;
}

static void print_bytes(const char *name, const void *data, size_t len)
{
    const unsigned char *b = data;

    printf(" %s=%zu:", name, len);
    if (!data || !len) {
        printf("-");
        return;
    }
    for (size_t i = 0; i < len; i++)
        printf("%02x", b[i]);
}

static void print_entry(const struct rdma_addrinfo *ai)
{
    printf(" | flags=0x%x family=%d qp=%d ps=0x%x", (unsigned) ai->ai_flags, ai->ai_family,
           ai->ai_qp_type, (unsigned) ai->ai_port_space);
    print_bytes("src", ai->ai_src_addr, ai->ai_src_len);
    print_bytes("dst", ai->ai_dst_addr, ai->ai_dst_len);
    printf(" srccanon=%s dstcanon=%s", ai->ai_src_canonname ? ai->ai_src_canonname : "-",
           ai->ai_dst_canonname ? ai->ai_dst_canonname : "-");
    print_bytes("route", ai->ai_route, ai->ai_route_len);
    print_bytes("connect", ai->ai_connect, ai->ai_connect_len);
}

static char *next_field(char **cursor)
{
    char *start = *cursor;
    char *tab;

    if (!start)
        return NULL;
    tab = strchr(start, '\t');
    if (tab) {
        *tab = '\0';
        *cursor = tab + 1;
    } else {
        *cursor = NULL;
    }
    return start;
}

int main(void)
{
    char line[4096];

    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        char *cursor = line;
        char *node, *service, *hints_text;
        struct rdma_addrinfo hints, *res = NULL;
        int ret, err;

        line[strcspn(line, "\n")] = '\0';
        node = next_field(&cursor);
        service = next_field(&cursor);
        hints_text = next_field(&cursor);
        if (!node || !service || !hints_text) {
            printf("bad case line\n");
            continue;
        }
        memset(&hints, 0, sizeof hints);
        if (strcmp(hints_text, NULL_TOKEN) != 0) {
            char src[512], dst[512];
            unsigned long flags;
            int family, qp, ps;

            if (sscanf(hints_text, "%li:%i:%i:%i:%511[^:]:%511s", &flags, &family, &qp, &ps, src, dst) != 6) {
                printf("bad hints %s\n", hints_text);
                continue;
            }
            hints.ai_flags = (int) flags;
            hints.ai_family = family;
            hints.ai_qp_type = qp;
            hints.ai_port_space = ps;
            hints.ai_src_addr = (struct sockaddr *) parse_hex(src, &hints.ai_src_len);
            hints.ai_dst_addr = (struct sockaddr *) parse_hex(dst, &hints.ai_dst_len);
        }
        errno = 0;
        ret = rdma_getaddrinfo(strcmp(node, NULL_TOKEN) ? node : NULL,
                               strcmp(service, NULL_TOKEN) ? service : NULL,
                               strcmp(hints_text, NULL_TOKEN) ? &hints : NULL, &res);
        err = errno;
        printf("ret=%d", ret);
        if (ret == -1)
            printf(" errno=%d", err);
        if (ret == 0)
            for (struct rdma_addrinfo *ai = res; ai; ai = ai->ai_next)
                print_entry(ai);
        printf("\n");
        if (ret == 0)
            rdma_freeaddrinfo(res);
        free(hints.ai_src_addr);
        free(hints.ai_dst_addr);
    }
    return 0;
}

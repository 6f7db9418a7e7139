/* rdma_getaddrinfo(NODE, SERVICE) from SRC through the real librdmacm, timed: abuse-reproductions.sh runs it
 * as the client past max_clients, where librdmacm asks the ACM service and (before issue 30's fix) waited in
 * its recv forever. Prints the return, errno, whether a route came back, and the call's time. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s NODE SERVICE SRC\n", argv[0]);
        return 2;
    }
    struct sockaddr_in src;
    memset(&src, 0, sizeof(src));
    src.sin_family = AF_INET;
    inet_pton(AF_INET, argv[3], &src.sin_addr);
    struct rdma_addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof(hints));
    hints.ai_port_space = RDMA_PS_TCP;
    hints.ai_src_addr = (struct sockaddr *) &src;
    hints.ai_src_len = sizeof(src);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int ret = rdma_getaddrinfo(argv[1], argv[2], &hints, &res);
    int err = errno;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    printf("rdma_getaddrinfo(%s, %s) from %s: ret %d (errno %d), route %s, in %.1f ms\n", argv[1], argv[2], argv[3], ret,
        ret ? err : 0, res && res->ai_route_len ? "yes" : "none (as without ACM)", ms);
    if (res)
        rdma_freeaddrinfo(res);
    return ret ? 1 : 0;
}

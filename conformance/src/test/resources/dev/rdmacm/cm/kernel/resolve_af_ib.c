/*
 * librdmacm's side of the AF_IB case: an RDMA_PS_TCP id and rdma_resolve_addr from an AF_IB source
 * (SGID, P_Key 0xffff, no Service ID) to an AF_IB destination (DGID, P_Key 0xffff, Service ID SID with
 * a full mask), 2000 ms, as the KERNEL back-end resolves a kernel id on InfiniBand. One line per step:
 *   "resolve errno N" (and ends) or "resolve 0", then "event NAME status S" or "no event".
 * SGID "-" resolves without a source.
 * Usage: resolve_af_ib SGID|- DGID SID
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>
#include <infiniband/ib.h>

static int ib_address(struct sockaddr_ib *sib, const char *gid, unsigned long long sid, unsigned long long mask)
{
	memset(sib, 0, sizeof *sib);
	sib->sib_family = AF_IB;
	sib->sib_pkey = htobe16(0xffff);
	sib->sib_sid = htobe64(sid);
	sib->sib_sid_mask = htobe64(mask);
	return inet_pton(AF_INET6, gid, &sib->sib_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *id;
	struct rdma_cm_event *event;
	struct sockaddr_ib source, destination;
	struct pollfd fd;

	if (argc != 4 || !channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP) ||
	    (strcmp(argv[1], "-") && ib_address(&source, argv[1], 0, 0)) || ib_address(&destination, argv[2], strtoull(argv[3], NULL, 0), ~0ULL)) {
		fprintf(stderr, "usage: %s SGID DGID SID (or no RDMA CM)\n", argv[0]);
		return 2;
	}
	if (rdma_resolve_addr(id, strcmp(argv[1], "-") ? (struct sockaddr *) &source : NULL, (struct sockaddr *) &destination, 2000)) {
		printf("resolve errno %d\n", errno);
		fflush(stdout);
		rdma_destroy_id(id);
		return 0;
	}
	printf("resolve 0\n");
	fd.fd = channel->fd;
	fd.events = POLLIN;
	if (poll(&fd, 1, 10000) != 1 || rdma_get_cm_event(channel, &event)) {
		printf("no event\n");
	} else {
		printf("event %s status %d\n", rdma_event_str(event->event) + strlen("RDMA_CM_EVENT_"), event->status);
		rdma_ack_cm_event(event);
	}
	fflush(stdout);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(channel);
	return 0;
}

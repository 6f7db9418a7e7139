/*
 * librdmacm's side of the multicast device-removal case: an RDMA_PS_UDP id bound to ADDR, joined to
 * GROUP (full member), then every event that comes (until DEVICE_REMOVAL), the first within FIRST_S, each
 * later one within THEN_S of the one before, then the leave and the destroy, as an application does on
 * DEVICE_REMOVAL. One line per step:
 *   "bind errno N" / "join errno N" (and ends), "event NAME status S" (the join's answer), "joined",
 *   then "event NAME status S" per later event or "no event", "leave errno N", "destroyed".
 * Usage: join_until_removed ADDR GROUP FIRST_S THEN_S
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>

static int next_event(struct rdma_event_channel *channel, int wait_ms)
{
	struct rdma_cm_event *event;
	struct pollfd fd = { .fd = channel->fd, .events = POLLIN };
	int type;

	if (poll(&fd, 1, wait_ms) != 1) {
		printf("no event\n");
		return -1;
	}
	if (rdma_get_cm_event(channel, &event)) {
		printf("get_cm_event errno %d\n", errno);
		return -1;
	}
	type = event->event;
	/* rdma_event_str's name without its RDMA_CM_EVENT_ prefix, as the Java side names it */
	printf("event %s status %d\n", rdma_event_str(event->event) + strlen("RDMA_CM_EVENT_"), event->status);
	rdma_ack_cm_event(event);
	return type;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *id;
	struct addrinfo hints, *bind, *group;
	int type, wait_s;

	memset(&hints, 0, sizeof hints);
	hints.ai_flags = AI_NUMERICHOST;
	if (argc != 5 || !channel || rdma_create_id(channel, &id, NULL, RDMA_PS_UDP) ||
	    getaddrinfo(argv[1], NULL, &hints, &bind) || getaddrinfo(argv[2], NULL, &hints, &group)) {
		fprintf(stderr, "usage: %s ADDR GROUP FIRST_S THEN_S (or no RDMA CM)\n", argv[0]);
		return 2;
	}
	if (rdma_bind_addr(id, bind->ai_addr)) {
		printf("bind errno %d\n", errno);
		return 0;
	}
	if (rdma_join_multicast(id, group->ai_addr, NULL)) {
		printf("join errno %d\n", errno);
		return 0;
	}
	next_event(channel, 30000);
	printf("joined\n");
	fflush(stdout);
	wait_s = atoi(argv[3]);
	do {
		type = next_event(channel, wait_s * 1000);
		wait_s = atoi(argv[4]);
	} while (type >= 0 && type != RDMA_CM_EVENT_DEVICE_REMOVAL);
	printf("leave errno %d\n", rdma_leave_multicast(id, group->ai_addr) ? errno : 0);
	rdma_destroy_id(id);
	printf("destroyed\n");
	rdma_destroy_event_channel(channel);
	return 0;
}

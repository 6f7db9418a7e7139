/*
 * librdmacm's side of the id options cases: an RDMA_PS_TCP id with RDMA_OPTION_ID_REUSEADDR and
 * RDMA_OPTION_ID_AFONLY set as asked, bound to ADDR#PORT and, unless told "bind", listening; then the
 * first request within WAIT_MS, rejected. Prints one line per step:
 *   "bind errno N" or "listen errno N" (and ends), or "bound" / "listening", then
 *   "event NAME" or "no request".
 * Standard input readable (a line, or its end) also ends the wait: the caller says so once its peer has ended, refused
 * by the kernel's CM or answered, after which no request of that peer's can come; WAIT_MS then bounds only a peer
 * that never ends.
 * Usage: listen_with_options ADDR PORT REUSE(0|1) AFONLY(-|0|1) WAIT_MS [bind]
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *id;
	struct addrinfo hints, *ai;
	struct rdma_cm_event *event;
	struct pollfd fds[2];
	int value;

	memset(&hints, 0, sizeof hints);
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
	if ((argc != 6 && argc != 7) || !channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP) ||
	    getaddrinfo(argv[1], argv[2], &hints, &ai)) {
		fprintf(stderr, "usage: %s ADDR PORT REUSE AFONLY WAIT_MS [bind] (or no RDMA CM)\n", argv[0]);
		return 2;
	}
	if (atoi(argv[3])) {
		value = 1;
		if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, &value, sizeof value)) {
			perror("rdma_set_option REUSEADDR");
			return 2;
		}
	}
	if (strcmp(argv[4], "-")) {
		value = atoi(argv[4]);
		if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, &value, sizeof value)) {
			perror("rdma_set_option AFONLY");
			return 2;
		}
	}
	if (rdma_bind_addr(id, ai->ai_addr)) {
		printf("bind errno %d\n", errno);
		return 0;
	}
	if (argc == 7) {
		printf("bound\n");
	} else {
		if (rdma_listen(id, 8)) {
			printf("listen errno %d\n", errno);
			return 0;
		}
		printf("listening\n");
	}
	fflush(stdout);
	fds[0].fd = channel->fd;
	fds[0].events = POLLIN;
	fds[1].fd = 0;
	fds[1].events = POLLIN;
	/* the caller's word comes after its peer's end, so a request of the peer's is queued by then: look once more */
	if (poll(fds, 2, atoi(argv[5])) < 1 || (!(fds[0].revents & POLLIN) && poll(fds, 1, 0) != 1)) {
		printf("no request\n");
		return 0;
	}
	if (rdma_get_cm_event(channel, &event)) {
		perror("rdma_get_cm_event");
		return 2;
	}
	printf("event %s\n", rdma_event_str(event->event));
	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		rdma_reject(event->id, NULL, 0);
	rdma_ack_cm_event(event);
	return 0;
}

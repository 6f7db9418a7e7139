/*
 * The kernel's listener under a REQ flood: librdmacm listens on ADDR PORT with BACKLOG, writes
 * "listening" to stderr, and takes nothing while the flood comes. On SIGUSR1 it takes every event
 * the channel holds without waiting, prints "connect_requests=N" (and "other_events=N"), and exits:
 * N is what the kernel kept of the flood, rdma_ucm's backlog rule.
 * Usage: listen_backlog ADDR PORT BACKLOG
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

static volatile sig_atomic_t counted;

static void on_usr1(int signal)
{
	(void)signal;
	counted = 1;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *listener;
	struct rdma_cm_event *event;
	struct addrinfo hints = { .ai_family = AF_INET, .ai_flags = AI_NUMERICHOST }, *address;
	struct sigaction action = { .sa_handler = on_usr1 };
	int requests = 0, others = 0;
	if (argc != 4) {
		fprintf(stderr, "usage: listen_backlog ADDR PORT BACKLOG\n");
		return 1;
	}
	if (!channel || rdma_create_id(channel, &listener, NULL, RDMA_PS_TCP) || getaddrinfo(argv[1], argv[2], &hints, &address)
	    || rdma_bind_addr(listener, address->ai_addr) || rdma_listen(listener, atoi(argv[3]))) {
		perror("listen");
		return 2;
	}
	sigaction(SIGUSR1, &action, NULL);
	fprintf(stderr, "listening pid=%d\n", (int)getpid());
	while (!counted)
		pause();
	fcntl(channel->fd, F_SETFL, fcntl(channel->fd, F_GETFL) | O_NONBLOCK);
	while (!rdma_get_cm_event(channel, &event)) {
		if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			requests++;
		else
			others++;
		rdma_ack_cm_event(event);
	}
	printf("connect_requests=%d\nother_events=%d\n", requests, others);
	return 0;
}

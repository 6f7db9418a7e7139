/*
 * The kernel side of the MRA case: librdmacm listens on ADDR PORT, takes the first CONNECT_REQUEST,
 * waits SECONDS before rdma_accept (rdma_cm has already told ib_cm to send a delayed MRA, which goes out
 * when the peer's REQ comes again), then prints each event until DISCONNECTED. With "first", it
 * disconnects as soon as the connection is ESTABLISHED (the lost-DREP case: its DISCONNECTED status
 * tells whether a DREP came).
 * Usage: accept_after_delay ADDR PORT SECONDS [first]
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

static struct rdma_cm_event *next(struct rdma_event_channel *channel)
{
	struct rdma_cm_event *event;
	if (rdma_get_cm_event(channel, &event)) {
		perror("rdma_get_cm_event");
		exit(2);
	}
	printf("event %s status %d\n", rdma_event_str(event->event), event->status);
	fflush(stdout);
	return event;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *listener, *id;
	struct addrinfo *ai;
	struct ibv_qp_init_attr attr;
	struct rdma_conn_param param;
	struct rdma_cm_event *event;

	int first = argc == 5 && !strcmp(argv[4], "first");

	if ((argc != 4 && !first) || !channel || rdma_create_id(channel, &listener, NULL, RDMA_PS_TCP) ||
	    getaddrinfo(argv[1], argv[2], NULL, &ai) || rdma_bind_addr(listener, ai->ai_addr) || rdma_listen(listener, 1)) {
		fprintf(stderr, "usage: %s ADDR PORT SECONDS [first] (or bind/listen failed)\n", argv[0]);
		return 2;
	}
	fprintf(stderr, "listening\n");
	event = next(channel);
	if (event->event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return 1;
	id = event->id;
	rdma_ack_cm_event(event);
	sleep(atoi(argv[3]));
	memset(&attr, 0, sizeof attr);
	attr.cap.max_send_wr = attr.cap.max_recv_wr = 1;
	attr.cap.max_send_sge = attr.cap.max_recv_sge = 1;
	attr.qp_type = IBV_QPT_RC;
	memset(&param, 0, sizeof param);
	param.responder_resources = param.initiator_depth = 1;
	param.rnr_retry_count = 7;
	if (rdma_create_qp(id, NULL, &attr) || rdma_accept(id, &param)) {
		perror("rdma_accept");
		return 2;
	}
	for (;;) {
		event = next(channel);
		enum rdma_cm_event_type type = event->event;
		rdma_ack_cm_event(event);
		if (type == RDMA_CM_EVENT_DISCONNECTED)
			break;
		if (type != RDMA_CM_EVENT_ESTABLISHED)
			return 1;
		if (first && rdma_disconnect(id)) {
			perror("rdma_disconnect");
			return 2;
		}
	}
	if (!first)
		rdma_disconnect(id);
	rdma_destroy_qp(id);
	rdma_destroy_id(id);
	rdma_destroy_id(listener);
	rdma_destroy_event_channel(channel);
	return 0;
}

/*
 * The kernel side of the reject case: librdmacm's own rdma_connect with private data, then the one
 * event that answers it, printed as "event NAME status N" and the event's private data up to its
 * first NUL ("private_data TEXT"). When that event is ESTABLISHED, it disconnects and prints the event
 * that follows too. Usage: connect_with_private_data ADDR PORT TEXT
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>

static struct rdma_cm_event *next(struct rdma_event_channel *channel, enum rdma_cm_event_type wanted)
{
	struct rdma_cm_event *event;
	if (rdma_get_cm_event(channel, &event)) {
		perror("rdma_get_cm_event");
		exit(2);
	}
	if (wanted != (enum rdma_cm_event_type)-1 && event->event != wanted) {
		printf("event %s status %d\n", rdma_event_str(event->event), event->status);
		exit(1);
	}
	return event;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rdma_cm_id *id;
	struct addrinfo *ai;
	struct ibv_qp_init_attr attr;
	struct rdma_conn_param param;
	struct rdma_cm_event *event;

	if (argc != 4 || !channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP) ||
	    getaddrinfo(argv[1], argv[2], NULL, &ai)) {
		fprintf(stderr, "usage: %s ADDR PORT TEXT (or no RDMA CM)\n", argv[0]);
		return 2;
	}
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, 2000)) {
		perror("rdma_resolve_addr");
		return 2;
	}
	rdma_ack_cm_event(next(channel, RDMA_CM_EVENT_ADDR_RESOLVED));
	if (rdma_resolve_route(id, 2000)) {
		perror("rdma_resolve_route");
		return 2;
	}
	rdma_ack_cm_event(next(channel, RDMA_CM_EVENT_ROUTE_RESOLVED));
	memset(&attr, 0, sizeof attr);
	attr.cap.max_send_wr = attr.cap.max_recv_wr = 1;
	attr.cap.max_send_sge = attr.cap.max_recv_sge = 1;
	attr.qp_type = IBV_QPT_RC;
	if (rdma_create_qp(id, NULL, &attr)) {
		perror("rdma_create_qp");
		return 2;
	}
	memset(&param, 0, sizeof param);
	param.private_data = argv[3];
	param.private_data_len = strlen(argv[3]) + 1;
	param.responder_resources = param.initiator_depth = 1;
	param.retry_count = param.rnr_retry_count = 7;
	if (rdma_connect(id, &param)) {
		perror("rdma_connect");
		return 2;
	}
	event = next(channel, (enum rdma_cm_event_type)-1);
	printf("event %s status %d\n", rdma_event_str(event->event), event->status);
	if (event->param.conn.private_data_len)
		printf("private_data %.*s\n", (int)strnlen(event->param.conn.private_data, event->param.conn.private_data_len),
		       (const char *)event->param.conn.private_data);
	if (event->event == RDMA_CM_EVENT_ESTABLISHED) {
		rdma_ack_cm_event(event);
		if (rdma_disconnect(id)) {
			perror("rdma_disconnect");
			return 2;
		}
		event = next(channel, (enum rdma_cm_event_type)-1);
		printf("event %s status %d\n", rdma_event_str(event->event), event->status);
	}
	rdma_ack_cm_event(event);
	rdma_destroy_qp(id);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(channel);
	return 0;
}

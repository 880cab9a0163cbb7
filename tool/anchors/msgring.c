/*
 * Kernel anchor for `jring bench msgring`: two threads, each owning a ring, streaming
 * IORING_OP_MSG_RING messages at each other in batches (or, with pingpong, one message in
 * flight). Built by the jring tool with `gcc -O2 msgring.c -luring` when gcc and liburing
 * are present.
 *
 * usage: msgring <batch> <seconds> [setup: 0 = default, 1 = SINGLE_ISSUER,
 *                2 = SINGLE_ISSUER|DEFER_TASKRUN] [stream|pingpong]
 * prints: ops_per_sec=<n>  (messages received per second over both directions; with
 *         pingpong, round trips per second); with pingpong also p50_ns=<n>, the median
 *         round trip of the last RTT_KEPT trips (the measured window, mostly)
 */
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MSG 1ULL
#define BYE 2ULL
#define SENDER 3ULL

struct side {
	struct io_uring ring;
	struct side *peer;
	_Atomic unsigned long long received;
	int initiator;
};

static int batch, mode, pingpong;

/* The initiator's last round trips in ns, a ring of RTT_KEPT; read by main after the join. */
#define RTT_KEPT (1 << 18)
static unsigned int rtt[RTT_KEPT];
static unsigned long long rtt_n;
static atomic_int stop;
static pthread_barrier_t ready;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *) a, y = *(const unsigned int *) b;
	return x < y ? -1 : x > y;
}

static void die(const char *what, int ret)
{
	fprintf(stderr, "%s: %s\n", what, strerror(-ret));
	exit(2);
}

static void send_msgs(struct side *s, int n, unsigned long long data)
{
	for (int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
		io_uring_prep_msg_ring(sqe, s->peer->ring.ring_fd, 0, data, 0);
		sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
		sqe->user_data = SENDER;
	}
}

/* Consumes every ready CQE; returns how many were messages, -1 once the peer said bye. */
static long reap(struct side *s)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	long msgs = 0;
	int bye = 0;

	io_uring_for_each_cqe(&s->ring, head, cqe) {
		seen++;
		if (cqe->user_data == MSG)
			msgs++;
		else if (cqe->user_data == BYE)
			bye = 1;
		else if (cqe->res < 0)
			die("msg_ring", cqe->res);
	}
	io_uring_cq_advance(&s->ring, seen);
	return bye ? -1 : msgs;
}

static void stream(struct side *s)
{
	long long sent = 0, recv = 0;
	/*
	 * Waits keep at most 3 batches sent beyond what came back (signed: the peer may be
	 * ahead), so a wait is never for more than one batch.
	 */
	long long window = 3LL * batch;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		long got;
		int ret;

		send_msgs(s, batch, MSG);
		sent += batch;
		if (sent - recv > window)
			ret = io_uring_submit_and_wait(&s->ring, (unsigned) (sent - recv - window));
		else
			ret = io_uring_submit_and_get_events(&s->ring);
		if (ret < 0)
			die("submit", ret);
		got = reap(s);
		if (got < 0)
			break;
		recv += got;
		while (sent - recv > window) {
			ret = io_uring_submit_and_wait(&s->ring, (unsigned) (sent - recv - window));
			if (ret < 0)
				die("wait", ret);
			got = reap(s);
			if (got < 0)
				goto out;
			recv += got;
		}
		atomic_store_explicit(&s->received, recv, memory_order_relaxed);
	}
out:
	/* The peer may be waiting for up to one batch: that many byes always wake it. */
	send_msgs(s, batch, BYE);
	io_uring_submit(&s->ring);
}

static void ping(struct side *s)
{
	unsigned long long trips = 0;
	double sent = 0;

	for (;;) {
		int done = !s->initiator ? 0 : atomic_load_explicit(&stop, memory_order_relaxed);
		struct io_uring_cqe *cqe;
		int ret;

		if (s->initiator) {
			sent = now();
			send_msgs(s, 1, done ? BYE : MSG);
			if (done) {
				io_uring_submit(&s->ring);
				return;
			}
			ret = io_uring_submit_and_wait(&s->ring, 1);
		} else {
			ret = io_uring_submit_and_wait(&s->ring, 1);
		}
		if (ret < 0)
			die("submit", ret);
		ret = io_uring_wait_cqe(&s->ring, &cqe);
		if (ret < 0)
			die("wait", ret);
		unsigned long long ud = cqe->user_data;
		if (ud == SENDER && cqe->res < 0)
			die("msg_ring", cqe->res);
		io_uring_cqe_seen(&s->ring, cqe);
		if (ud == BYE)
			return;
		if (ud != MSG)
			continue;
		if (s->initiator) {
			rtt[rtt_n++ & (RTT_KEPT - 1)] = (unsigned int) ((now() - sent) * 1e9);
			atomic_store_explicit(&s->received, ++trips, memory_order_relaxed);
		} else {
			send_msgs(s, 1, MSG);
		}
	}
}

static void *run(void *arg)
{
	struct side *s = arg;
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 16 * batch < 256 ? 256 : 16 * batch;
	if (mode >= 1)
		p.flags |= IORING_SETUP_SINGLE_ISSUER;
	if (mode >= 2)
		p.flags |= IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(2 * batch < 64 ? 64 : 2 * batch, &s->ring, &p);
	if (ret < 0)
		die("io_uring_queue_init", ret);
	pthread_barrier_wait(&ready);
	if (pingpong)
		ping(s);
	else
		stream(s);
	/* Both rings stay open until both threads are done, so no message hits a closed ring. */
	pthread_barrier_wait(&ready);
	io_uring_queue_exit(&s->ring);
	return NULL;
}

static unsigned long long total(struct side *s)
{
	return atomic_load_explicit(&s[0].received, memory_order_relaxed)
		+ atomic_load_explicit(&s[1].received, memory_order_relaxed);
}

int main(int argc, char **argv)
{
	double seconds, t0, t1;
	unsigned long long c0, c1;
	struct side s[2];
	pthread_t th[2];

	batch = argc > 1 ? atoi(argv[1]) : 32;
	seconds = argc > 2 ? atof(argv[2]) : 3;
	mode = argc > 3 ? atoi(argv[3]) : 2;
	pingpong = argc > 4 && strcmp(argv[4], "pingpong") == 0;
	if (batch < 1)
		batch = 1;
	memset(s, 0, sizeof(s));
	s[0].peer = &s[1];
	s[1].peer = &s[0];
	s[0].initiator = 1;
	pthread_barrier_init(&ready, NULL, 3);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, run, &s[i]);
	pthread_barrier_wait(&ready);
	/* Warm up for a quarter of the time (as nop.c), then measure. */
	usleep((useconds_t) (seconds / 4 * 1e6));
	c0 = total(s);
	t0 = now();
	usleep((useconds_t) (seconds * 1e6));
	c1 = total(s);
	t1 = now();
	atomic_store(&stop, 1);
	pthread_barrier_wait(&ready);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("ops_per_sec=%.0f\n", (c1 - c0) / (t1 - t0));
	if (pingpong && rtt_n > 0) {
		size_t n = rtt_n < RTT_KEPT ? rtt_n : RTT_KEPT;
		qsort(rtt, n, sizeof(rtt[0]), cmp_uint);
		printf("p50_ns=%u\n", rtt[n / 2]);
	}
	return 0;
}

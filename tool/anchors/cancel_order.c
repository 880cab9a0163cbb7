/*
 * Kernel anchor for what ASYNC_CANCEL finds and in which order CQEs come when requests
 * complete through task work (io_try_cancel, io_poll_cancel_req, kiocb_done), for
 * direct-descriptor ACCEPT, OPENAT and SOCKET (io_accept with a file index,
 * io_fixed_fd_install), for a READ that took a provided buffer and then fails, and for
 * what a plain ring's submit has posted when it returns (task work runs on the way out of
 * io_uring_enter). jring's cross-check scenarios (CancelOrderScenarios) hold the cases the
 * harness can express; the others are tests of their own (AcceptDirectTest, ...).
 *
 * build: gcc -O2 -o cancel_order cancel_order.c -luring
 * usage: cancel_order [0 | 1]   (1 = SINGLE_ISSUER | DEFER_TASKRUN)
 * prints one line per case: <name>: submit=<n> [ready=<cq ready right after submit>] <ud>:<res>[/flags] ...
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef IORING_FILE_INDEX_ALLOC
#define IORING_FILE_INDEX_ALLOC (~0U)
#endif

static int setup;
static char buf[65536];
static char bufs[4 * 64];

static void ring_open(struct io_uring *r)
{
	struct io_uring_params p = { 0 };
	if (setup)
		p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	int ret = io_uring_queue_init_params(16, r, &p);
	if (ret) {
		fprintf(stderr, "queue_init: %s\n", strerror(-ret));
		exit(2);
	}
}

static struct io_uring_sqe *sqe_of(struct io_uring *r, int op, int fd, const void *addr, unsigned len,
				   unsigned long long off, unsigned long long ud)
{
	struct io_uring_sqe *s = io_uring_get_sqe(r);
	io_uring_prep_rw(op, s, fd, addr, len, off);
	s->user_data = ud;
	return s;
}

static void cancel(struct io_uring *r, unsigned long long target, int flags, unsigned long long ud)
{
	struct io_uring_sqe *s = io_uring_get_sqe(r);
	io_uring_prep_cancel64(s, target, flags);
	s->user_data = ud;
}

static void print_cqes(struct io_uring *r, int expect)
{
	for (int i = 0; i < expect; i++) {
		struct io_uring_cqe *c;
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 300000000 };
		if (io_uring_wait_cqe_timeout(r, &c, &ts))
			break;
		printf(" %llu:%d", (unsigned long long) c->user_data, c->res);
		if (c->flags)
			printf("/%x", c->flags);
		io_uring_cqe_seen(r, c);
	}
	printf("\n");
}

/* Submits what is queued, prints the submit's return, the CQEs ready at once, and every CQE. */
static void run(struct io_uring *r, const char *name, int expect)
{
	int n = io_uring_submit(r);
	unsigned ready = io_uring_cq_ready(r);
	printf("%s: submit=%d ready=%u", name, n, ready);
	print_cqes(r, expect);
}

static void provide(struct io_uring *r, int count)
{
	struct io_uring_cqe *c;
	io_uring_prep_provide_buffers(io_uring_get_sqe(r), bufs, 64, count, 1, 0);
	io_uring_submit(r);
	io_uring_wait_cqe(r, &c);
	io_uring_cqe_seen(r, c);
}

static void socket_pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		exit(2);
}

/* A listening unix socket with {@code pending} connections waiting; their client ends leak. */
static int listener(int pending)
{
	static int n;
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof(a.sun_path), "/tmp/cancel_order_%d_%d", getpid(), n++);
	unlink(a.sun_path);
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *) &a, sizeof(a)) || listen(l, 8))
		exit(2);
	for (int i = 0; i < pending; i++) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *) &a, sizeof(a)))
			exit(2);
	}
	unlink(a.sun_path);
	return l;
}

static void accept_direct(const char *name, int table, int pending, unsigned file_index, int multishot, int count)
{
	struct io_uring r;
	int l = listener(pending);
	ring_open(&r);
	if (table) {
		int fds[4] = { -1, -1, -1, -1 };
		for (int i = 0; i < table && i < 4; i++)
			fds[i] = table > 4 ? 0 : -1;
		if (io_uring_register_files(&r, fds, table > 4 ? 4 : table))
			exit(2);
	}
	struct io_uring_sqe *s = io_uring_get_sqe(&r);
	if (multishot)
		io_uring_prep_multishot_accept(s, l, NULL, NULL, 0);
	else
		io_uring_prep_accept(s, l, NULL, NULL, 0);
	s->file_index = file_index;
	s->user_data = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, name, count + 1);
	io_uring_queue_exit(&r);
	close(l);
}

int main(int argc, char **argv)
{
	struct io_uring r;
	struct io_uring_sqe *s;
	int sv[2], p[2];
	signal(SIGPIPE, SIG_IGN);
	setup = argc > 1 ? atoi(argv[1]) : 0;

	/* ---- 1: cancel and task work queued before it ---- */
	socket_pair(sv);
	write(sv[1], "x", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_multishot(s, sv[0], POLLIN);
	s->user_data = 1;
	cancel(&r, 1, 0, 2);
	run(&r, "ready multishot poll + cancel", 2);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_multishot(s, sv[0], POLLIN);
	s->user_data = 1;
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_remove(s, 1);
	s->user_data = 2;
	cancel(&r, 1, 0, 3);
	run(&r, "ready multishot poll + poll_remove + cancel", 3);
	io_uring_queue_exit(&r);
	close(sv[0]);
	close(sv[1]);

	/* readiness arrives between two submits (a plain ring runs it on the write's return) */
	socket_pair(sv);
	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	run(&r, "poll not ready", 0);
	write(sv[1], "x", 1);
	cancel(&r, 1, 0, 2);
	run(&r, "  then data, then cancel", 2);
	io_uring_queue_exit(&r);
	close(sv[0]);
	close(sv[1]);

	socket_pair(sv);
	ring_open(&r);
	sqe_of(&r, IORING_OP_RECV, sv[0], buf, 8, 0, 1);
	run(&r, "recv armed", 0);
	write(sv[1], "x", 1);
	cancel(&r, 1, 0, 2);
	run(&r, "  then data, then cancel", 2);
	sqe_of(&r, IORING_OP_RECV, sv[0], buf, 8, 0, 3)->msg_flags = MSG_DONTWAIT;
	run(&r, "  then recv DONTWAIT", 1);
	io_uring_queue_exit(&r);
	close(sv[0]);
	close(sv[1]);

	/* a NOWAIT write's -EAGAIN from the file goes through task work */
	if (pipe(p))
		return 2;
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], buf, sizeof(buf)) > 0)
		;
	ring_open(&r);
	s = sqe_of(&r, IORING_OP_WRITE, p[1], "x", 1, -1, 1);
	s->rw_flags = RWF_NOWAIT;
	cancel(&r, 1, 0, 2);
	run(&r, "nowait write full pipe + its cancel", 2);
	s = sqe_of(&r, IORING_OP_WRITE, p[1], "x", 1, -1, 1);
	s->rw_flags = RWF_NOWAIT;
	cancel(&r, 77, 0, 2);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 3);
	run(&r, "nowait write full pipe + other cancel + nop", 3);
	io_uring_queue_exit(&r);
	close(p[0]);
	close(p[1]);

	/* ---- 2: a second cancel of a cancelled request in the same submit ---- */
	socket_pair(sv);
	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	cancel(&r, 1, 0, 2);
	cancel(&r, 1, 0, 3);
	run(&r, "oneshot poll + cancel + cancel", 3);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_multishot(s, sv[0], POLLIN);
	s->user_data = 1;
	cancel(&r, 1, 0, 2);
	cancel(&r, 1, 0, 3);
	run(&r, "multishot poll + cancel + cancel", 3);
	io_uring_queue_exit(&r);

	ring_open(&r);
	sqe_of(&r, IORING_OP_RECV, sv[0], buf, 8, 0, 1);
	cancel(&r, 1, 0, 2);
	cancel(&r, 1, 0, 3);
	run(&r, "recv + cancel + cancel", 3);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	cancel(&r, 1, IORING_ASYNC_CANCEL_ALL, 2);
	cancel(&r, 1, IORING_ASYNC_CANCEL_ALL, 3);
	cancel(&r, 0, IORING_ASYNC_CANCEL_ANY, 4);
	cancel(&r, 1, 0, 5);
	run(&r, "2 polls + cancel ALL + cancel ALL + cancel ANY + cancel", 7);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	cancel(&r, 1, 0, 2);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_remove(s, 1);
	s->user_data = 3;
	run(&r, "poll + cancel + poll_remove", 3);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_remove(s, 1);
	s->user_data = 2;
	cancel(&r, 1, 0, 3);
	run(&r, "poll + poll_remove + cancel", 3);
	io_uring_queue_exit(&r);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 1;
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel_fd(s, sv[0], 0);
	s->user_data = 2;
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel_fd(s, sv[0], 0);
	s->user_data = 3;
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel_fd(s, sv[0], IORING_ASYNC_CANCEL_ALL);
	s->user_data = 4;
	run(&r, "poll + cancel fd + cancel fd + cancel fd ALL", 4);
	io_uring_queue_exit(&r);
	close(sv[0]);
	close(sv[1]);

	/* ---- 3: ACCEPT into a fixed-file slot ---- */
	accept_direct("accept slot 1 of 2", 2, 1, 2, 0, 1);
	accept_direct("accept alloc, table of 2", 2, 1, IORING_FILE_INDEX_ALLOC, 0, 1);
	accept_direct("accept alloc, full table", 5, 1, IORING_FILE_INDEX_ALLOC, 0, 1);
	accept_direct("accept slot 1, no table", 0, 1, 2, 0, 1);
	accept_direct("accept alloc, no table", 0, 1, IORING_FILE_INDEX_ALLOC, 0, 1);
	accept_direct("accept slot 5 of 2", 2, 1, 6, 0, 1);
	accept_direct("multishot accept alloc, 3 waiting, table of 2", 2, 3, IORING_FILE_INDEX_ALLOC, 1, 3);
	accept_direct("multishot accept slot 1", 2, 1, 2, 1, 1);
	accept_direct("accept slot 1, none waiting", 2, 0, 2, 0, 0);

	/* ---- 4: direct OPENAT and SOCKET post in order ---- */
	ring_open(&r);
	{
		int fds[2] = { -1, -1 };
		io_uring_register_files(&r, fds, 2);
	}
	s = io_uring_get_sqe(&r);
	io_uring_prep_openat_direct(s, AT_FDCWD, "/dev/null", O_RDONLY, 0, 0);
	s->user_data = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	s = io_uring_get_sqe(&r);
	io_uring_prep_socket_direct(s, AF_UNIX, SOCK_STREAM, 0, 1, 0);
	s->user_data = 3;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 4);
	s = io_uring_get_sqe(&r);
	io_uring_prep_socket_direct_alloc(s, AF_UNIX, SOCK_STREAM, 0, 0);
	s->user_data = 5;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 6);
	run(&r, "openat direct, nop, socket direct, nop, socket alloc (full), nop", 6);
	io_uring_queue_exit(&r);

	/* ---- 5: a READ that took a provided buffer and fails at issue ---- */
	{
		char path[] = "/tmp/cancel_order_XXXXXX";
		int f = mkstemp(path);
		unlink(path);
		write(f, "hello world\n", 12);
		ring_open(&r);
		provide(&r, 4);
		s = sqe_of(&r, IORING_OP_READ, f, NULL, 0, 0, 1);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		s->rw_flags = 0x10000;
		s = sqe_of(&r, IORING_OP_READ, f, NULL, 0, (unsigned long long) -100, 2);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		s = sqe_of(&r, IORING_OP_READ, 0x3fffffff, NULL, 0, 0, 3);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		if (pipe(p))
			return 2;
		s = sqe_of(&r, IORING_OP_READ, p[1], NULL, 0, -1, 4);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		s = sqe_of(&r, IORING_OP_READ, f, NULL, 0, 0, 5);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		run(&r, "select read rw_flags 0x10000, off -100, bad fd, write end, then a good read", 5);
		s = io_uring_get_sqe(&r);
		io_uring_prep_remove_buffers(s, 10, 1);
		s->user_data = 6;
		run(&r, "  then remove buffers", 1);
		io_uring_queue_exit(&r);
		close(p[0]);
		close(p[1]);
		close(f);
	}

	/* ---- 7: what a plain ring's submit has posted when it returns ---- */
	if (pipe(p))
		return 2;
	close(p[0]);
	ring_open(&r);
	sqe_of(&r, IORING_OP_WRITE, p[1], "x", 1, -1, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "write EPIPE + nop", 2);
	socket_pair(sv);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->user_data = 3;
	cancel(&r, 3, 0, 4);
	run(&r, "poll + cancel", 2);
	io_uring_queue_exit(&r);
	close(p[1]);
	return 0;
}

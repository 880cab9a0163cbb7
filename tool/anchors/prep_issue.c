/*
 * Kernel anchor for where Linux validates an SQE: at prep (io_init_req and the op's
 * io_*_prep: submission stops there unless SUBMIT_ALL, the request fails before it runs)
 * or at issue (the op runs and its CQE carries the error; submission goes on). Each case
 * submits a small batch on a fresh ring and prints the submit's return and the CQEs.
 * jring's cross-check scenarios (PrepIssueScenarios) hold the same cases as data.
 *
 * build: gcc -O2 -o prep_issue prep_issue.c -luring
 * usage: prep_issue [0 | 1]   (1 = SINGLE_ISSUER | DEFER_TASKRUN)
 * prints one line per case: <name>: submit=<n> <ud>:<res>[/flags] ...
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_DATA 0
#define MSG_SEND_FD 1
#define MSG_CQE_SKIP 1
#define MSG_FLAGS_PASS 2

static int setup;
static char buf[4096];

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

/* Submits what is queued and prints the submit's return and every CQE that arrives. */
static void run(struct io_uring *r, const char *name, int expect)
{
	/* A trailing NOP shows where submission stopped: at prep it stays queued. */
	sqe_of(r, IORING_OP_NOP, -1, NULL, 0, 0, 99);
	expect++;
	int n = io_uring_submit(r);
	printf("%s: submit=%d", name, n);
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
	io_uring_queue_exit(r);
}

static int file_fd(void)
{
	char path[] = "/tmp/prep_issue_XXXXXX";
	int fd = mkstemp(path);
	unlink(path);
	if (write(fd, "hello world\n", 12) != 12)
		exit(2);
	return fd;
}

int main(int argc, char **argv)
{
	struct io_uring r, t;
	struct io_uring_sqe *s;
	int f = file_fd();
	int sv[2], p[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	if (pipe(p))
		return 2;
	setup = argc > 1 ? atoi(argv[1]) : 0;

	/* ---- reads and writes ---- */
	ring_open(&r);
	sqe_of(&r, IORING_OP_READ, f, buf, 10, (unsigned long long) -100, 1);
	sqe_of(&r, IORING_OP_FSYNC, f, NULL, 0, 0, 2);
	run(&r, "read off -100 then fsync", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, (unsigned long long) -100, 1);
	s->flags = IOSQE_IO_LINK;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "read off -100 linked to nop", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, (unsigned long long) -100, 1);
	s->flags = IOSQE_IO_HARDLINK;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "read off -100 hardlinked to nop", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_READ, p[0], buf, 10, (unsigned long long) -2, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "pipe read off -2", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_WRITE, f, "abc", 3, (unsigned long long) -100, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "write off -100", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_READ, f, NULL, 10, 0, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "read null buffer", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_READ, f, NULL, 0, 0, 1);
	run(&r, "read null buffer len 0", 1);

	ring_open(&r);
	sqe_of(&r, IORING_OP_WRITE, f, NULL, 10, 0, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "write null buffer", 2);

	{
		struct iovec iov[1] = { { NULL, 10 } };
		ring_open(&r);
		sqe_of(&r, IORING_OP_READV, f, iov, 1, 0, 1);
		sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
		run(&r, "readv null base", 2);
	}
	ring_open(&r);
	sqe_of(&r, IORING_OP_READV, f, NULL, 1, 0, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "readv null array", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, 0, 1);
	s->rw_flags = 0x10000;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "read rw_flags 0x10000", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, 0, 1);
	s->rw_flags = 0x20;
	run(&r, "read rw_flags NOAPPEND", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, 0, 1);
	s->rw_flags = 0x10000;
	s->off = (unsigned long long) -100;
	run(&r, "read rw_flags 0x10000 off -100", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, -1, buf, 10, 0, 1);
	s->rw_flags = 0x10000;
	run(&r, "read bad fd rw_flags 0x10000", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE | IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "read fixed|select no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_RECV, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE | IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "recv fixed|select no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, 0x3fffffff, NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "read bad fd select empty group", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_RECV, p[0], NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "recv pipe select empty group", 1);

	ring_open(&r);
	io_uring_prep_provide_buffers(io_uring_get_sqe(&r), buf, 64, 1, 1, 7);
	s = sqe_of(&r, IORING_OP_READ, 0x3fffffff, NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	s = sqe_of(&r, IORING_OP_READ, f, NULL, 0, 0, 2);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "read bad fd select then good", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_WRITE, sv[0], "x", 1, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	run(&r, "write select", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SEND, sv[0], NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	run(&r, "send select empty group", 1);

	{
		struct iovec iov[1] = { { NULL, 8 } };
		ring_open(&r);
		s = sqe_of(&r, IORING_OP_READV, f, iov, 1, 0, 1);
		s->flags = IOSQE_BUFFER_SELECT;
		s->buf_group = 1;
		run(&r, "readv select empty group", 1);
	}

	/* ---- sockets ---- */
	if (write(sv[1], "ping", 4) != 4)
		return 2;
	ring_open(&r);
	sqe_of(&r, IORING_OP_RECV, sv[0], NULL, 10, 0, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "recv null buffer", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_SEND, sv[0], NULL, 10, 0, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "send null buffer", 2);

	ring_open(&r);
	io_uring_prep_socket(io_uring_get_sqe(&r), AF_INET, SOCK_STREAM | 0x10000, 0, 0);
	io_uring_sqe_set_data64(io_uring_get_sqe(&r), 0);
	r.sq.sqes[0].user_data = 1;
	r.sq.sqes[1].opcode = IORING_OP_NOP;
	r.sq.sqes[1].user_data = 2;
	run(&r, "socket type flag 0x10000", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_INET, NULL, 0, 15, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "socket type 15", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, 999, NULL, 0, SOCK_STREAM, 1);
	run(&r, "socket domain 999", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_UNIX, NULL, 0, SOCK_STREAM | SOCK_CLOEXEC, 1);
	s->file_index = 1;
	run(&r, "socket file_index cloexec", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_UNIX, NULL, 0, SOCK_STREAM, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "socket fixed_file", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_UNIX, NULL, 0, 0x100000000ULL | SOCK_STREAM, 1);
	run(&r, "socket type high bits", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_ACCEPT, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "accept fixed no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SHUTDOWN, sv[0], NULL, 7, 0, 1);
	run(&r, "shutdown how 7", 1);

	/* ---- open ---- */
	ring_open(&r);
	io_uring_prep_openat(io_uring_get_sqe(&r), AT_FDCWD, "", O_RDONLY, 0);
	r.sq.sqes[0].user_data = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "openat empty path", 2);

	{
		static char longp[4097];
		memset(longp, 'a', 4096);
		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_openat(s, AT_FDCWD, longp, O_RDONLY, 0);
		s->user_data = 1;
		sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
		run(&r, "openat path 4096", 2);
		for (int i = 0; i < 4094; i += 2)
			memcpy(longp + i, "./", 2);
		longp[4094] = '.';
		longp[4095] = 0;
		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_openat(s, AT_FDCWD, longp, O_RDONLY, 0);
		s->user_data = 1;
		run(&r, "openat path 4095 (./...)", 1);
	}
	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_openat(s, AT_FDCWD, NULL, O_RDONLY, 0);
	s->user_data = 1;
	run(&r, "openat null path", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_openat(s, AT_FDCWD, "/tmp", 0x40000000, 0);
	s->user_data = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "openat bad flags", 2);

	/* ---- MSG_RING ---- */
	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) MSG_DATA, 5, 77, 1);
	s->msg_ring_flags = 4;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "msg_ring flags 4", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) MSG_DATA, 5, 77, 1);
	s->msg_ring_flags = MSG_CQE_SKIP;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "msg_ring data cqe_skip", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) 5, 5, 77, 1);
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "msg_ring cmd 5", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, 0, (void *) MSG_DATA, 5, 77, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "msg_ring fixed no table", 2);

	ring_open(&r);
	io_uring_register_files(&r, &p[0], 1);
	s = sqe_of(&r, IORING_OP_MSG_RING, 0, (void *) MSG_DATA, 5, 77, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "msg_ring fixed slot holds pipe", 2);

	ring_open(&r);
	io_uring_register_files(&r, &p[0], 1);
	s = sqe_of(&r, IORING_OP_MSG_RING, 3, (void *) MSG_DATA, 5, 77, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "msg_ring fixed slot out of range", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_MSG_RING, p[0], (void *) MSG_DATA, 5, 77, 1);
	run(&r, "msg_ring to a pipe", 2);

	ring_open(&r);
	sqe_of(&r, IORING_OP_MSG_RING, -1, (void *) MSG_DATA, 5, 77, 1);
	run(&r, "msg_ring fd -1", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) MSG_DATA, 5, 77, 1);
	s->file_index = 5;
	run(&r, "msg_ring data file_index no pass", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) MSG_DATA, 5, 77, 1);
	s->addr3 = 5;
	run(&r, "msg_ring data addr3", 3);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_MSG_RING, r.ring_fd, (void *) MSG_DATA, 5, 77, 1);
	s->buf_index = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "msg_ring buf_index", 3);

	ring_open(&r);
	ring_open(&t);
	io_uring_register_files(&r, &p[0], 1);
	io_uring_register_files_sparse(&t, 4);
	s = sqe_of(&r, IORING_OP_MSG_RING, t.ring_fd, (void *) MSG_SEND_FD, 1, 77, 1);
	s->addr3 = 0;
	s->file_index = 1;
	run(&r, "msg_ring send_fd len 1", 1);
	io_uring_queue_exit(&t);

	ring_open(&r);
	ring_open(&t);
	io_uring_register_files(&r, &p[0], 1);
	io_uring_register_files_sparse(&t, 4);
	s = sqe_of(&r, IORING_OP_MSG_RING, t.ring_fd, (void *) MSG_SEND_FD, 0, 77, 1);
	s->addr3 = 0;
	s->file_index = 1;
	s->msg_ring_flags = MSG_FLAGS_PASS;
	run(&r, "msg_ring send_fd flags_pass", 1);
	io_uring_queue_exit(&t);

	ring_open(&r);
	ring_open(&t);
	io_uring_register_files(&r, &p[0], 1);
	io_uring_register_files_sparse(&t, 4);
	s = sqe_of(&r, IORING_OP_MSG_RING, t.ring_fd, (void *) MSG_SEND_FD, 0, 77, 1);
	s->addr3 = 0xffffffffu;
	s->file_index = 1;
	run(&r, "msg_ring send_fd src 0xffffffff", 1);
	io_uring_queue_exit(&t);

	/* ---- timeouts ---- */
	{
		struct __kernel_timespec ts = { 0, 1000000 };
		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_timeout(s, &ts, 0, 0);
		s->flags = IOSQE_FIXED_FILE;
		s->user_data = 1;
		run(&r, "timeout fixed_file", 1);

		ring_open(&r);
		s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
		s->flags = IOSQE_IO_LINK;
		s = io_uring_get_sqe(&r);
		io_uring_prep_link_timeout(s, &ts, 0);
		s->flags = IOSQE_FIXED_FILE;
		s->user_data = 2;
		run(&r, "link_timeout fixed_file", 2);

		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_timeout_remove(s, 9, 0);
		s->flags = IOSQE_FIXED_FILE;
		s->user_data = 1;
		sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
		run(&r, "timeout_remove fixed_file", 2);

		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_timeout_remove(s, 9, 0);
		s->off = 12345;
		s->user_data = 1;
		run(&r, "timeout_remove with addr2", 1);

		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_timeout(s, &ts, 0, 0);
		s->off = (unsigned long long) -1;
		s->user_data = 1;
		run(&r, "timeout count -1", 1);

		ring_open(&r);
		s = io_uring_get_sqe(&r);
		io_uring_prep_timeout(s, &ts, 0, 0);
		s->buf_group = 1;
		s->user_data = 1;
		run(&r, "timeout buf_group", 1);
	}

	/* ---- provided buffers ---- */
	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_provide_buffers(s, buf, 64, 2, 1, 0);
	s->flags = IOSQE_FIXED_FILE;
	s->user_data = 1;
	s = io_uring_get_sqe(&r);
	io_uring_prep_remove_buffers(s, 2, 1);
	s->flags = IOSQE_FIXED_FILE;
	s->user_data = 2;
	run(&r, "provide/remove fixed_file", 2);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_provide_buffers(s, buf, 64, 2, 1, 70000);
	s->user_data = 1;
	run(&r, "provide bid 70000", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_provide_buffers(s, buf, 64, 2, 1, 65535);
	s->user_data = 1;
	run(&r, "provide bid 65535 count 2", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_provide_buffers(s, NULL, 64, 2, 1, 0);
	s->user_data = 1;
	run(&r, "provide null region", 1);

	/* ---- poll, cancel, nop, fsync ---- */
	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->len = IORING_POLL_ADD_LEVEL;
	s->user_data = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "poll_add level", 2);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_add(s, sv[0], POLLIN);
	s->buf_index = 1;
	s->user_data = 1;
	run(&r, "poll_add buf_index", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_remove(s, 9);
	s->off = 5;
	s->user_data = 1;
	run(&r, "poll_remove off 5", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_poll_remove(s, 9);
	s->flags = IOSQE_FIXED_FILE;
	s->user_data = 1;
	run(&r, "poll_remove fixed_file", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel64(s, 9, 0);
	s->len = 3;
	s->user_data = 1;
	run(&r, "cancel len 3", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel64(s, 9, 0);
	s->flags = IOSQE_FIXED_FILE;
	s->user_data = 1;
	run(&r, "cancel fixed_file", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel_fd(s, 0, 0);
	s->flags = IOSQE_FIXED_FILE;
	s->user_data = 1;
	run(&r, "cancel fd fixed_file no table", 1);

	ring_open(&r);
	s = io_uring_get_sqe(&r);
	io_uring_prep_cancel_fd(s, 0, IORING_ASYNC_CANCEL_FD_FIXED);
	s->user_data = 1;
	run(&r, "cancel fd_fixed no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	s->personality = 1;
	sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	run(&r, "nop personality 1", 2);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "nop fixed_file", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_FSYNC, f, NULL, 0, 0, 1);
	s->buf_index = 1;
	run(&r, "fsync buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_FSYNC, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "fsync fixed no table", 1);

	/* ---- io_init_req order, and buf_index on ops that refuse it ---- */
	ring_open(&r);
	s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->ioprio = 1;
	run(&r, "nop select + ioprio", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT | 0x80;
	run(&r, "nop select + flag 0x80", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	s->ioprio = 1;
	s->personality = 1;
	run(&r, "nop ioprio + personality", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ_FIXED, f, buf, 10, (unsigned long long) -100, 1);
	run(&r, "read_fixed off -100 no buffers", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READV, f, buf, 1025, 0, 1);
	run(&r, "readv 1025 vectors", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_ACCEPT, sv[0], NULL, 0, 0, 1);
	s->buf_index = 1;
	run(&r, "accept buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SHUTDOWN, sv[0], NULL, 1, 0, 1);
	s->buf_index = 1;
	run(&r, "shutdown buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_UNIX, NULL, 0, SOCK_STREAM, 1);
	s->buf_index = 1;
	run(&r, "socket buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_RECV, sv[0], buf, 10, 0, 1);
	s->buf_index = 1;
	run(&r, "recv buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, f, buf, 10, 0, 1);
	s->buf_index = 1;
	run(&r, "read buf_index", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_CLOSE, 0x3fffffff, NULL, 0, 0, 1);
	run(&r, "close bad fd", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_POLL_ADD, 0x3fffffff, NULL, 0, 0, 1);
	s->poll32_events = POLLIN;
	run(&r, "poll_add bad fd", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_RECV, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE | IOSQE_BUFFER_SELECT | IOSQE_ASYNC;
	s->buf_group = 1;
	run(&r, "recv fixed|select|async no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE | IOSQE_BUFFER_SELECT | IOSQE_ASYNC;
	s->buf_group = 1;
	run(&r, "read fixed|select|async no table", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_READ, p[0], NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	s->rw_flags = 0x10000;
	run(&r, "read select empty group bad rw_flags", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_RECV, sv[0], NULL, 0, 0, 1);
	s->flags = IOSQE_BUFFER_SELECT;
	s->buf_group = 1;
	s->ioprio = IORING_RECVSEND_POLL_FIRST;
	s->msg_flags = MSG_DONTWAIT;
	run(&r, "recv select empty poll_first dontwait", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_CLOSE, 0, NULL, 0, 0, 1);
	s->flags = IOSQE_FIXED_FILE;
	run(&r, "close fixed_file", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_CLOSE, 0x3fffffff, NULL, 1, 0, 1);
	run(&r, "close len 1", 1);

	ring_open(&r);
	s = sqe_of(&r, IORING_OP_ACCEPT, sv[0], NULL, 0, 0, 1);
	s->accept_flags = 1;
	run(&r, "accept bad flags", 1);

	ring_open(&r);
	io_uring_register_files_sparse(&r, 2);
	s = sqe_of(&r, IORING_OP_SOCKET, AF_UNIX, NULL, 0, SOCK_STREAM, 1);
	s->file_index = 2;
	s->flags = IOSQE_IO_LINK;
	s = sqe_of(&r, IORING_OP_NOP, 1, NULL, 0, 0, 2);
	s->rw_flags = (1U << 1) | (1U << 2);	/* nop_flags: IORING_NOP_FILE | IORING_NOP_FIXED_FILE */
	run(&r, "socket into slot 1 then nop on it", 2);
	return 0;
}

/*
 * Kernel anchor for jring issue 16 A2: what the kernel's io_uring does with the requests of
 * a submitter thread that exits without reaping them, and what another thread of the
 * process may then do with the ring.
 *
 * A submitter thread creates the ring (so it is the SINGLE_ISSUER / DEFER_TASKRUN owner),
 * submits the requests of one case and exits. The main thread joins it, then (poll case)
 * writes the pipe, and for up to 2 s reads the CQ memory (no syscall) and, in mode "wait",
 * also calls io_uring_enter(GETEVENTS) with a 10 ms timeout. It prints every CQE with the
 * time since the submitter was joined, the first errno each kind of call gave, and the
 * time close() took.
 *
 * build: gcc -O2 -o dying_submitter dying_submitter.c -luring -lpthread
 * usage: dying_submitter <setup: 0 plain, 1 SINGLE_ISSUER, 2 SINGLE_ISSUER|DEFER_TASKRUN>
 *                        <case: inline | iowq | poll | timer | device | issue | overflow>
 *                        <peek | wait> [dir for the O_DIRECT file, default .] [alive]
 *   alive: the submitter does not exit but blocks (outside io_uring) until the main thread
 *   is done, to compare another thread's reads and waits while the owner lives.
 *   inline: 32 NOPs; iowq: 32 ASYNC NOPs, io-wq limited to 1 worker; poll: READ on an empty
 *   pipe (armed on poll); timer: TIMEOUT 200 ms; device: 8 O_DIRECT 4 KiB reads;
 *   issue: 32 ASYNC NOPs + READ on an empty pipe (the issue's example); overflow: 3 x 64
 *   inline NOPs on a ring with 128 CQEs, so 64 wait in the overflow list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct io_uring ring;
static int setup_mode;
static const char *which;
static int pipefd[2] = {-1, -1};
static int dfd = -1;
static void *dbuf;
static int expected;
static int submit_ret;
static int stay_alive;
static sem_t submitted, release;

/* The submitter, done submitting: exits (returns), or with "alive" blocks until released. */
static void *after_submit(void)
{
	if (stay_alive) {
		sem_post(&submitted);
		while (sem_wait(&release) && errno == EINTR)
			;
	}
	return NULL;
}
static struct __kernel_timespec ts200 = {.tv_sec = 0, .tv_nsec = 200000000};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *submitter(void *arg)
{
	struct io_uring_params p;
	int i, ret;

	(void)arg;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 128;
	if (setup_mode >= 1)
		p.flags |= IORING_SETUP_SINGLE_ISSUER;
	if (setup_mode >= 2)
		p.flags |= IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(64, &ring, &p);
	if (ret < 0) {
		fprintf(stderr, "queue_init: %s\n", strerror(-ret));
		exit(1);
	}
	if (!strcmp(which, "inline") || !strcmp(which, "iowq") || !strcmp(which, "issue")) {
		int async = strcmp(which, "inline") != 0;
		if (async) {
			unsigned int v[2] = {1, 1};
			io_uring_register_iowq_max_workers(&ring, v);
		}
		for (i = 0; i < 32; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			io_uring_prep_nop(sqe);
			sqe->user_data = i;
			if (async)
				sqe->flags |= IOSQE_ASYNC;
		}
		expected = 32;
	}
	if (!strcmp(which, "poll") || !strcmp(which, "issue")) {
		static char buf[64];
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, pipefd[0], buf, sizeof(buf), 0);
		sqe->user_data = 100;
		expected++;
	}
	if (!strcmp(which, "timer")) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_timeout(sqe, &ts200, 0, 0);
		sqe->user_data = 200;
		expected++;
	}
	if (!strcmp(which, "device")) {
		for (i = 0; i < 8; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			io_uring_prep_read(sqe, dfd, (char *)dbuf + i * 4096, 4096, (off_t)i * 4096);
			sqe->user_data = 300 + i;
		}
		expected += 8;
	}
	if (!strcmp(which, "overflow")) {
		int r;
		for (r = 0; r < 3; r++) {
			for (i = 0; i < 64; i++) {
				struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
				io_uring_prep_nop(sqe);
				sqe->user_data = r * 64 + i;
			}
			ret = io_uring_submit(&ring);
			submit_ret += ret;
		}
		expected = 192;
		return after_submit();
	}
	submit_ret = io_uring_submit(&ring);
	return after_submit();
}

int main(int argc, char **argv)
{
	pthread_t t;
	double t0, start;
	int seen = 0, wait_mode, err_wait = 0, err_submit = 0, err_getevents = 0, waits = 0;
	const char *dir;
	char path[4096];

	if (argc < 4) {
		fprintf(stderr, "usage: %s <0|1|2> <inline|iowq|poll|timer|device|issue|overflow> <peek|wait> [dir] [alive]\n",
			argv[0]);
		return 2;
	}
	setup_mode = atoi(argv[1]);
	which = argv[2];
	wait_mode = !strcmp(argv[3], "wait");
	dir = argc > 4 ? argv[4] : ".";
	stay_alive = argc > 5 && !strcmp(argv[5], "alive");
	sem_init(&submitted, 0, 0);
	sem_init(&release, 0, 0);
	if (pipe(pipefd))
		return 1;
	if (!strcmp(which, "device")) {
		static char data[8 * 4096];
		int f;
		/* written and synced, so the reads go to the device (a hole would be zero-filled inline) */
		memset(data, 'x', sizeof(data));
		snprintf(path, sizeof(path), "%s/dying_submitter.dat", dir);
		f = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (f < 0 || write(f, data, sizeof(data)) != (ssize_t)sizeof(data) || fsync(f))
			return 1;
		close(f);
		dfd = open(path, O_RDONLY | O_DIRECT);
		if (dfd < 0) {
			printf("skip: no O_DIRECT in %s: %s\n", dir, strerror(errno));
			return 0;
		}
		if (posix_memalign(&dbuf, 4096, 8 * 4096))
			return 1;
	}
	pthread_create(&t, NULL, submitter, NULL);
	if (stay_alive)
		sem_wait(&submitted);
	else
		pthread_join(t, NULL);
	t0 = now();
	printf("setup=%d case=%s mode=%s owner=%s submit=%d expected=%d\n", setup_mode, which, argv[3],
	       stay_alive ? "alive" : "exited", submit_ret, expected);
	if (pipefd[1] >= 0 && (!strcmp(which, "poll") || !strcmp(which, "issue"))) {
		if (write(pipefd[1], "hello", 5) != 5)
			return 1;
	}
	start = now();
	while (seen < expected && now() - start < 2.0) {
		unsigned head, n = 0;
		struct io_uring_cqe *cqe;
		io_uring_for_each_cqe(&ring, head, cqe) {
			printf("  +%.3f ms ud=%llu res=%d flags=%u\n", (now() - t0) * 1e3,
			       (unsigned long long)cqe->user_data, cqe->res, cqe->flags);
			n++;
		}
		io_uring_cq_advance(&ring, n);
		seen += n;
		if (seen >= expected)
			break;
		if (wait_mode) {
			struct __kernel_timespec ts = {.tv_sec = 0, .tv_nsec = 10000000};
			struct io_uring_cqe *c;
			int r = io_uring_wait_cqe_timeout(&ring, &c, &ts);
			waits++;
			if (r < 0 && r != -ETIME && !err_wait)
				err_wait = r;
		} else {
			usleep(1000);
		}
	}
	printf("seen=%d of %d after %.1f ms; first wait error: %s (%d waits)\n", seen, expected,
	       (now() - t0) * 1e3, err_wait ? strerror(-err_wait) : "none", waits);
	/* GETEVENTS with min_complete 0: does the kernel let this thread run the ring's task work? */
	err_getevents = io_uring_get_events(&ring);
	printf("io_uring_get_events from another thread: %d (%s)\n", err_getevents,
	       err_getevents < 0 ? strerror(-err_getevents) : "ok");
	{
		unsigned head, n = 0;
		struct io_uring_cqe *cqe;
		io_uring_for_each_cqe(&ring, head, cqe) {
			printf("  late +%.3f ms ud=%llu res=%d\n", (now() - t0) * 1e3,
			       (unsigned long long)cqe->user_data, cqe->res);
			n++;
		}
		io_uring_cq_advance(&ring, n);
	}
	{
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		sqe->user_data = 999;
		err_submit = io_uring_submit(&ring);
		printf("submit from another thread: %d (%s)\n", err_submit,
		       err_submit < 0 ? strerror(-err_submit) : "ok");
	}
	if (stay_alive) {
		sem_post(&release);
		pthread_join(t, NULL);
	}
	start = now();
	io_uring_queue_exit(&ring);
	printf("close: %.3f ms\n", (now() - start) * 1e3);
	if (dfd >= 0)
		unlink(path);
	return 0;
}

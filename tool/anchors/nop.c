/*
 * Kernel anchor for `jring bench nop`: the kernel's own io_uring submitting and reaping
 * NOPs in batches, single thread (t/io_uring -N style). Built by the jring tool with
 * `gcc -O2 nop.c -luring` when gcc and liburing are present.
 *
 * usage: nop <batch> <seconds> [setup: 0 = default, 1 = SINGLE_ISSUER, 2 = SINGLE_ISSUER|DEFER_TASKRUN]
 * prints: ops_per_sec=<n>
 */
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int batch = argc > 1 ? atoi(argv[1]) : 32;
	double seconds = argc > 2 ? atof(argv[2]) : 5;
	int mode = argc > 3 ? atoi(argv[3]) : 1;
	struct io_uring_params p;
	struct io_uring ring;
	unsigned long long ops = 0;
	double start, end;
	int ret;

	memset(&p, 0, sizeof(p));
	if (mode >= 1)
		p.flags |= IORING_SETUP_SINGLE_ISSUER;
	if (mode >= 2)
		p.flags |= IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(batch < 64 ? 64 : batch, &ring, &p);
	if (ret < 0) {
		fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
		return 2;
	}
	/* Warm up for a quarter of the time, then measure. */
	for (int phase = 0; phase < 2; phase++) {
		double len = phase == 0 ? seconds / 4 : seconds;
		ops = 0;
		start = now();
		end = start + len;
		for (;;) {
			for (int k = 0; k < 64; k++) {
				struct io_uring_cqe *cqe;
				unsigned head, seen = 0;

				for (int i = 0; i < batch; i++)
					io_uring_prep_nop(io_uring_get_sqe(&ring));
				ret = io_uring_submit_and_wait(&ring, batch);
				if (ret < 0) {
					fprintf(stderr, "submit: %s\n", strerror(-ret));
					return 2;
				}
				io_uring_for_each_cqe(&ring, head, cqe)
					seen++;
				io_uring_cq_advance(&ring, seen);
				ops += seen;
			}
			if (now() >= end)
				break;
		}
	}
	printf("ops_per_sec=%.0f\n", ops / (now() - start));
	io_uring_queue_exit(&ring);
	return 0;
}

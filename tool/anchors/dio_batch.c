/*
 * How many completions a QD8 O_DIRECT random-read loop finds when a wait returns, without
 * Java: submit one 4k read at a time until 8 are in flight, take what is done without
 * waiting, else wait for one and count what else is done with it. Modes:
 *   0: io_uring (io_uring_submit, io_uring_wait_cqe),
 *   1: native AIO, io_submit + io_getevents(min 1),
 *   2: native AIO with IOCB_FLAG_RESFD, io_submit + epoll_wait on the eventfd (jring's path).
 * Prints IOPS, the number of waits, and a histogram: entry k = waits that returned k
 * completions (last entry: more than 8). On the cloud volume here nearly every wait returns
 * all 8: the device answers a batch together (docs/BENCHMARKS.md, issue 7, fifth session).
 *
 * build: gcc -O2 -o dio_batch dio_batch.c -luring
 * usage: dio_batch <mode 0|1|2> <seconds> <file of at least 256 MiB, laid out>
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <string.h>
static double now() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
#define BLOCKS (256*1024*1024/4096)
#define D 8
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: dio_batch <mode 0|1|2> <seconds> <file of >= 256 MiB>\n"); return 2; }
    int mode = atoi(argv[1]); double secs = atof(argv[2]);
    int fd = open(argv[3], O_RDONLY | O_DIRECT);
    if (fd < 0) { perror("open"); return 1; }
    void *buf[D]; for (int i=0;i<D;i++) posix_memalign(&buf[i], 4096, 4096);
    long n = 0, waits = 0; long hist[D+2] = {0}; unsigned seed = 12345; double t0 = now(), end = t0 + secs;
    int inflight = 0;
    if (mode == 0) {
        struct io_uring ring; io_uring_queue_init(D, &ring, 0);
        while (now() < end) {
            while (inflight < D) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_read(s, fd, buf[inflight], 4096, (off_t)(rand_r(&seed) % BLOCKS) * 4096); io_uring_submit(&ring); inflight++; }
            struct io_uring_cqe *c; int got = 0;
            while (io_uring_peek_cqe(&ring, &c) == 0) { io_uring_cqe_seen(&ring, c); got++; }
            if (!got) { io_uring_wait_cqe(&ring, &c); io_uring_cqe_seen(&ring, c); got = 1; waits++; int g2=0; while (io_uring_peek_cqe(&ring, &c) == 0) { io_uring_cqe_seen(&ring, c); g2++; } hist[g2+1]++; got += g2; }
            inflight -= got; n += got;
        }
    } else {
        aio_context_t ctx = 0; syscall(SYS_io_setup, 64, &ctx);
        int efd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0);
        struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 1 }; epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
        struct iocb cb[D]; struct io_event evs[64]; struct timespec zero = {0,0};
        while (now() < end) {
            while (inflight < D) { struct iocb *p = &cb[inflight]; memset(p, 0, sizeof *p); p->aio_fildes = fd; p->aio_lio_opcode = IOCB_CMD_PREAD; p->aio_buf = (unsigned long)buf[inflight]; p->aio_nbytes = 4096; p->aio_offset = (long long)(rand_r(&seed) % BLOCKS) * 4096; if (mode == 2) { p->aio_flags = IOCB_FLAG_RESFD; p->aio_resfd = efd; } syscall(SYS_io_submit, ctx, 1, &p); inflight++; }
            int got = syscall(SYS_io_getevents, ctx, 0, 64, evs, &zero);
            if (got == 0) { waits++;
                if (mode == 1) got = syscall(SYS_io_getevents, ctx, 1, 64, evs, NULL);
                else { struct epoll_event e; epoll_wait(ep, &e, 1, -1); got = syscall(SYS_io_getevents, ctx, 0, 64, evs, &zero); }
                hist[got < D+1 ? got : D+1]++; }
            inflight -= got; n += got;
        }
    }
    double el = now() - t0; printf("mode %d: %.1fK IOPS waits %ld hist:", mode, n / el / 1e3, waits);
    for (int i = 0; i < D+2; i++) printf(" %ld", hist[i]);
    printf("\n");
    return 0;
}

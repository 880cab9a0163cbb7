/*
 * The kernel interfaces under `jring fio --direct=1 --iodepth=1`, without Java: 4k random
 * O_DIRECT reads at queue depth 1 through
 *   mode 0: io_uring, one io_uring_submit_and_wait per read (what fio's io_uring engine does),
 *   mode 1: native AIO, io_submit + io_getevents(min 1) (fio's libaio engine),
 *   mode 2: native AIO with IOCB_FLAG_RESFD, io_submit + epoll_wait on the eventfd (jring's
 *           DirectIo path: the waiter sleeps in its poller's epoll).
 * Run the modes alternately to see whether the interface jring uses costs latency by itself.
 *
 * build: gcc -O2 -o dio_qd1 dio_qd1.c -luring
 * usage: dio_qd1 <mode> <seconds> <file of at least 256 MiB, laid out>
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
int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: dio_qd1 <mode 0|1|2> <seconds> <file of >= 256 MiB>\n");
        return 2;
    }
    int mode = atoi(argv[1]); double secs = atof(argv[2]);
    int fd = open(argv[3], O_RDONLY | O_DIRECT);
    if (fd < 0) { perror("open"); return 1; }
    void *buf; posix_memalign(&buf, 4096, 4096);
    long n = 0; unsigned seed = 12345; double t0 = now(), end = t0 + secs;
    if (mode == 0) { // io_uring submit_and_wait
        struct io_uring ring; io_uring_queue_init(8, &ring, 0);
        while (now() < end) { for (int k = 0; k < 64; k++) {
            struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_read(s, fd, buf, 4096, (off_t)(rand_r(&seed) % BLOCKS) * 4096);
            io_uring_submit_and_wait(&ring, 1); struct io_uring_cqe *c; io_uring_peek_cqe(&ring, &c); io_uring_cqe_seen(&ring, c); n++; } }
    } else {
        aio_context_t ctx = 0; syscall(SYS_io_setup, 8, &ctx);
        int efd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0);
        struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 1 }; epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
        struct iocb cb; struct iocb *cbs[1] = {&cb}; struct io_event evs[4];
        while (now() < end) { for (int k = 0; k < 64; k++) {
            memset(&cb, 0, sizeof cb); cb.aio_fildes = fd; cb.aio_lio_opcode = IOCB_CMD_PREAD; cb.aio_buf = (unsigned long)buf; cb.aio_nbytes = 4096;
            cb.aio_offset = (long long)(rand_r(&seed) % BLOCKS) * 4096;
            if (mode == 2) { cb.aio_flags = IOCB_FLAG_RESFD; cb.aio_resfd = efd; }
            syscall(SYS_io_submit, ctx, 1, cbs);
            if (mode == 1) { syscall(SYS_io_getevents, ctx, 1, 4, evs, NULL); }
            else { struct timespec z = {0, 0}; int got = 0;
                while (!got) { struct epoll_event e; epoll_wait(ep, &e, 1, -1); got = syscall(SYS_io_getevents, ctx, 0, 4, evs, &z); } }
            n++; } }
    }
    printf("mode %d (%s): %.1fK IOPS, %.2f us/IO\n", mode, mode == 0 ? "io_uring submit_and_wait" : mode == 1 ? "io_submit+io_getevents" : "io_submit+epoll_wait(eventfd)", n / (now() - t0) / 1000, (now() - t0) * 1e6 / n);
    return 0;
}

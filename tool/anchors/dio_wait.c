/*
 * What the way a native-AIO waiter sleeps costs, without Java: 4k random O_DIRECT reads kept
 * at queue depth D, one io_submit per read, completions taken from the AIO completion ring in
 * user space (as jring's DirectIo and fio's libaio engine do), and when the ring is empty the
 * thread sleeps by
 *   mode 1: io_getevents(min 1) (fio's libaio engine),
 *   mode 2: IOCB_FLAG_RESFD on every iocb + epoll_wait on the eventfd (jring's DirectIo),
 *   mode 3: IOCB_FLAG_RESFD on every iocb, but io_getevents (the eventfd signal's cost alone),
 *   mode 4: no RESFD; an IOCB_CMD_POLL on an epoll fd (holding a wake eventfd) stays armed in
 *           the AIO context and the thread sleeps in io_getevents (a design that would keep
 *           wakeups from other threads without signalling an eventfd per completion),
 *   mode 5: never sleeps: spins on the completion ring in user space (the bound on what
 *           busy-polling before a sleep could gain).
 * Prints IOPS, busy CPU of the whole machine per I/O (from /proc/stat, steal excluded),
 * the number of sleeps and I/Os per voluntary context switch. Run the modes alternately:
 * docs/BENCHMARKS.md, issue 7, sixth session (modes 1-4) and seventh (mode 5).
 *
 * build: gcc -O2 -o dio_wait dio_wait.c
 * usage: dio_wait <mode 1..5> <seconds> <file of at least 256 MiB, laid out> <depth 1..64>
 */
#define _GNU_SOURCE
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <string.h>

#define BLOCKS (256 * 1024 * 1024 / 4096)
#define POLL_TOKEN 999

struct aio_ring { unsigned id, nr, head, tail, magic, compat, incompat, hlen; struct io_event ev[]; };

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

/* Busy jiffies of all CPUs: user nice system irq softirq (idle, iowait and steal excluded). */
static long busy(void) {
    long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f || fscanf(f, "cpu %ld %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8) { perror("/proc/stat"); exit(1); }
    fclose(f);
    return v[0] + v[1] + v[2] + v[5] + v[6];
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: dio_wait <mode 1..5> <seconds> <file of >= 256 MiB> <depth 1..64>\n"); return 2; }
    int mode = atoi(argv[1]), depth = atoi(argv[4]);
    double secs = atof(argv[2]);
    if (mode < 1 || mode > 5 || depth < 1 || depth > 64) { fprintf(stderr, "mode 1..5, depth 1..64\n"); return 2; }
    int fd = open(argv[3], O_RDONLY | O_DIRECT);
    if (fd < 0) { perror("open"); return 1; }
    void *buf[64];
    int freeb[64], nfree = 0;
    for (int i = 0; i < depth; i++) { if (posix_memalign(&buf[i], 4096, 4096)) return 1; freeb[nfree++] = i; }
    aio_context_t ctx = 0;
    if (syscall(SYS_io_setup, 128, &ctx) < 0) { perror("io_setup"); return 1; }
    struct aio_ring *ring = (struct aio_ring *) ctx;
    int efd = eventfd(0, EFD_NONBLOCK), wakefd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 1 };
    epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
    struct epoll_event wev = { .events = EPOLLIN | EPOLLET, .data.u64 = 2 };
    epoll_ctl(ep, EPOLL_CTL_ADD, wakefd, &wev);
    struct iocb cb[64], pollcb;
    struct io_event got;
    int pollArmed = 0, inflight = 0;
    long n = 0, sleeps = 0;
    unsigned seed = 12345;
    long b0 = busy();
    double t0 = now(), end = t0 + secs;
    while (now() < end) {
        while (inflight < depth) {
            int b = freeb[--nfree];
            struct iocb *p = &cb[b];
            memset(p, 0, sizeof *p);
            p->aio_data = b;
            p->aio_fildes = fd;
            p->aio_lio_opcode = IOCB_CMD_PREAD;
            p->aio_buf = (unsigned long) buf[b];
            p->aio_nbytes = 4096;
            p->aio_offset = (long long) (rand_r(&seed) % BLOCKS) * 4096;
            if (mode == 2 || mode == 3) { p->aio_flags = IOCB_FLAG_RESFD; p->aio_resfd = efd; }
            if (syscall(SYS_io_submit, ctx, 1, &p) != 1) { perror("io_submit"); return 1; }
            inflight++;
        }
        if (mode == 4 && !pollArmed) {
            memset(&pollcb, 0, sizeof pollcb);
            pollcb.aio_data = POLL_TOKEN;
            pollcb.aio_fildes = ep;
            pollcb.aio_lio_opcode = IOCB_CMD_POLL;
            pollcb.aio_buf = POLLIN;
            struct iocb *p = &pollcb;
            if (syscall(SYS_io_submit, ctx, 1, &p) != 1) { perror("io_submit poll"); return 1; }
            pollArmed = 1;
        }
        /* Reap one completion, as fio does by default (iodepth_batch_complete_max = 1). */
        for (;;) {
            unsigned head = ring->head, tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
            unsigned long data;
            if (head != tail) {
                data = ring->ev[head].data;
                __atomic_store_n(&ring->head, (head + 1) % ring->nr, __ATOMIC_RELEASE);
            } else {
                if (mode == 5) {
                    __builtin_ia32_pause();
                    continue;
                }
                sleeps++;
                if (mode == 2) {
                    struct epoll_event e;
                    epoll_wait(ep, &e, 1, -1);
                    continue;
                }
                if (syscall(SYS_io_getevents, ctx, 1, 1, &got, NULL) != 1) continue;
                data = got.data;
            }
            if (data == POLL_TOKEN) { pollArmed = 0; continue; }
            freeb[nfree++] = (int) data;
            inflight--;
            n++;
            break;
        }
    }
    double el = now() - t0;
    long b1 = busy();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("mode %d QD%d: %.1fK IOPS, busy cpu/io %.2f us, sleeps %ld, io/vcsw %.2f\n", mode, depth,
           n / el / 1e3, (b1 - b0) * (1e6 / sysconf(_SC_CLK_TCK)) / n, sleeps, (double) n / (ru.ru_nvcsw ? ru.ru_nvcsw : 1));
    return 0;
}

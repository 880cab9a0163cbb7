/*
 * What Linux's POLL_ADD does as it arms, without Java (issue 16 B1, B4-B6; the same cases
 * are cross-check scenarios in core/src/test/java/io/jring/kernel/PollScenarios.java).
 * Prints the CQEs of each case as {ud res flags}. Seen on 6.18, plain and DEFER_TASKRUN:
 *   ready one-shot + POLL_REMOVE in one submit: {1 5 0} {2 -2 0}   (completes as it arms)
 *   ready multishot + POLL_REMOVE:  {4 -114 0} {3 5 2}, and it stays armed (then {5 0 0} {3 -125 0})
 *   regular file: IN 1, OUT 4, RDNORM 64, WRNORM 256; ERR, HUP, PRI, RDHUP, NVAL, 0: -22;
 *     multishot IN: {1 0} (one final CQE); IORING_POLL_ADD_LEVEL: -22 at prep (submit stops)
 *   polls armed after a multishot on the same socket never re-fire it
 *   multishot IN|OUT on a writable socket, then data arrives: {40 1 2}, res 1 (the wakeup's
 *     key), not the level IN|OUT; a multishot OUT poll gets no CQE for arriving data
 *   fd 1<<30, INT_MAX, INT_MIN, -1: -9 for POLL_ADD, READ, RECV, ACCEPT, CANCEL_FD, CLOSE
 *
 * build: gcc -O2 -o poll_arm poll_arm.c -luring
 * usage: poll_arm [defer]
 */
#include <liburing.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct io_uring ring;

static struct io_uring_sqe *sqe(unsigned long long ud) {
    struct io_uring_sqe *s = io_uring_get_sqe(&ring);
    s->user_data = ud;
    return s;
}

/* Submits, then prints what arrives within 30 ms. */
static void show(const char *what) {
    int n = io_uring_submit(&ring);
    struct io_uring_cqe *c;
    struct __kernel_timespec ts = {0, 30 * 1000000L};
    printf("%-44s submit %2d:", what, n);
    while (io_uring_wait_cqe_timeout(&ring, &c, &ts) == 0) {
        printf(" {%llu %d %u}", (unsigned long long) c->user_data, c->res, c->flags);
        io_uring_cqe_seen(&ring, c);
    }
    printf("\n");
}

static void pair(int *sv) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        perror("socketpair");
        exit(1);
    }
}

int main(int argc, char **argv) {
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    if (argc > 1) {
        p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    }
    if (io_uring_queue_init_params(64, &ring, &p) != 0) {
        perror("io_uring_queue_init_params");
        return 1;
    }
    int sv[2];
    char buf[8];

    pair(sv);
    write(sv[1], "x", 1);
    io_uring_prep_poll_add(sqe(1), sv[0], POLLIN | POLLOUT);
    io_uring_prep_poll_remove(sqe(2), 1);
    show("B4 ready one-shot + remove");
    io_uring_prep_poll_multishot(sqe(3), sv[0], POLLIN | POLLOUT);
    io_uring_prep_poll_remove(sqe(4), 3);
    show("B4 ready multishot + remove");
    io_uring_prep_poll_remove(sqe(5), 3);
    show("B4 remove again");

    int f = open(argv[0], O_RDONLY);
    int masks[] = {POLLIN, POLLOUT, POLLRDNORM, POLLWRNORM, POLLERR, POLLHUP, POLLPRI, POLLRDHUP, POLLNVAL, 0};
    for (unsigned i = 0; i < sizeof masks / sizeof *masks; i++) {
        char what[64];
        io_uring_prep_poll_add(sqe(10 + i), f, masks[i]);
        io_uring_prep_poll_multishot(sqe(20 + i), f, masks[i]);
        snprintf(what, sizeof what, "B5 regular file, mask 0x%x, then multishot", masks[i]);
        show(what);
    }
    struct io_uring_sqe *level = sqe(30);
    io_uring_prep_poll_add(level, f, POLLIN);
    level->len = IORING_POLL_ADD_LEVEL;
    io_uring_prep_nop(sqe(31));
    show("B5 LEVEL, then a NOP");
    show("B5 (the NOP, next submit)");

    pair(sv);
    io_uring_prep_poll_multishot(sqe(40), sv[0], POLLIN | POLLOUT);
    show("B6 multishot IN|OUT, writable");
    io_uring_prep_poll_add(sqe(41), sv[0], POLLOUT);
    show("B6 then one-shot OUT");
    io_uring_prep_recv(sqe(42), sv[0], buf, sizeof buf, 0);
    show("B6 then RECV (waits)");
    write(sv[1], "ab", 2);
    show("B6 data arrives");

    int fds[] = {1 << 30, INT_MAX, INT_MIN, -1};
    for (unsigned i = 0; i < sizeof fds / sizeof *fds; i++) {
        char what[64];
        io_uring_prep_poll_add(sqe(50), fds[i], POLLIN);
        io_uring_prep_read(sqe(51), fds[i], buf, sizeof buf, 0);
        io_uring_prep_recv(sqe(52), fds[i], buf, sizeof buf, 0);
        io_uring_prep_accept(sqe(53), fds[i], NULL, NULL, 0);
        io_uring_prep_cancel_fd(sqe(54), fds[i], 0);
        io_uring_prep_close(sqe(55), fds[i]);
        snprintf(what, sizeof what, "B1 fd %d", fds[i]);
        show(what);
    }
    return 0;
}

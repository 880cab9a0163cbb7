/*
 * A recv waiting on a socket that is then closed (IORING_OP_CLOSE, mode 1, or close(2), mode 2)
 * while a new socket takes the same number, on the kernel's own io_uring: the new recv gets the
 * new socket's data, the old one stays pending (it holds the closed file) until cancelled.
 * FdReuseTest checks jring against these results.
 *
 * build: gcc -o fd_reuse fd_reuse.c -luring
 */
#include <liburing.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>
static void drain(struct io_uring *r, const char *w) { struct io_uring_cqe *c; struct __kernel_timespec ts = {0, 200000000}; while (io_uring_wait_cqe_timeout(r, &c, &ts) == 0) { printf("%s: ud=%llu res=%d\n", w, (unsigned long long)c->user_data, c->res); io_uring_cqe_seen(r, c); } }
int main() {
  struct io_uring r; io_uring_queue_init(16, &r, 0); char b1[64], b2[64];
  for (int mode = 1; mode <= 2; mode++) {
    int sp[2], sp2[2]; socketpair(AF_UNIX, SOCK_STREAM, 0, sp);
    struct io_uring_sqe *s = io_uring_get_sqe(&r); io_uring_prep_recv(s, sp[0], b1, 64, 0); s->user_data = 1; io_uring_submit(&r);
    if (mode == 1) { s = io_uring_get_sqe(&r); io_uring_prep_close(s, sp[0]); s->user_data = 9; io_uring_submit(&r); } else close(sp[0]);
    drain(&r, "first");
    socketpair(AF_UNIX, SOCK_STREAM, 0, sp2); printf("mode %d old %d new %d\n", mode, sp[0], sp2[0]);
    s = io_uring_get_sqe(&r); io_uring_prep_recv(s, sp2[0], b2, 64, 0); s->user_data = 2; io_uring_submit(&r);
    write(sp2[1], "ab", 2); drain(&r, "second");
    s = io_uring_get_sqe(&r); io_uring_prep_cancel64(s, 1, 0); s->user_data = 3; io_uring_submit(&r); drain(&r, "cancel");
    close(sp2[0]); close(sp2[1]); close(sp[1]);
  }
  return 0; }

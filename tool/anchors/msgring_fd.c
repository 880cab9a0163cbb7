/*
 * MSG_RING SEND_FD's file index on the kernel's own io_uring, the cases of
 * MsgRingTest.theRawFileIndexIsSlotPlusOneAndAllocReportsTheSlotToBothRings: the SQE's
 * file_index is the target slot + 1 (0 and past the table: -EINVAL), IORING_FILE_INDEX_ALLOC
 * takes the first free slot and both CQEs carry it, a full table or none -ENFILE for ALLOC,
 * -ENXIO for a slot without a table. Written without liburing's msg_ring_fd helpers (the
 * installed liburing predates them).
 *
 * build: gcc -o msgring_fd msgring_fd.c -luring
 */
#include <liburing.h>
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
static void prep_fd(struct io_uring_sqe *s, int rfd, int src, unsigned dst_plus1, unsigned long long data, unsigned flags) {
  io_uring_prep_rw(IORING_OP_MSG_RING, s, rfd, (void *)1 /* IORING_MSG_SEND_FD */, 0, data);
  s->addr3 = src; s->file_index = dst_plus1; s->msg_ring_flags = flags; }
#define io_uring_prep_msg_ring_fd(s, rfd, src, dst, data, fl) prep_fd(s, rfd, src, (dst) + 1, data, fl)
#define io_uring_prep_msg_ring_fd_alloc(s, rfd, src, data, fl) prep_fd(s, rfd, src, 0xFFFFFFFFu, data, fl)
static void show(struct io_uring *r, const char *who) { struct io_uring_cqe *c; while (io_uring_peek_cqe(r, &c) == 0) { printf("%s: ud=%llu res=%d flags=%u\n", who, (unsigned long long)c->user_data, c->res, c->flags); io_uring_cqe_seen(r, c); } }
int main() {
  struct io_uring a, b; io_uring_queue_init(8, &a, 0); io_uring_queue_init(8, &b, 0);
  int p[2]; pipe(p);
  printf("regA %d\n", io_uring_register_files(&a, p, 2));
  int sparse[4] = {-1,-1,-1,-1}; sparse[0] = p[0];
  printf("regB %d\n", io_uring_register_files(&b, sparse, 4));
  struct io_uring_sqe *s;
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd_alloc(s, b.ring_fd, 1, 77, 0); s->user_data = 1;
  io_uring_submit(&a); usleep(10000); show(&a, "A alloc"); show(&b, "B alloc");
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd(s, b.ring_fd, 0, 2, 78, 0); s->user_data = 2;
  io_uring_submit(&a); usleep(10000); show(&a, "A slot2"); show(&b, "B slot2");
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd(s, b.ring_fd, 0, 2, 79, 0); s->file_index = 0; s->user_data = 3;
  io_uring_submit(&a); usleep(10000); show(&a, "A raw0"); show(&b, "B raw0");
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd(s, b.ring_fd, 0, 2, 80, 0); s->file_index = 5; s->user_data = 4;
  io_uring_submit(&a); usleep(10000); show(&a, "A raw5"); show(&b, "B raw5");
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd(s, b.ring_fd, 0, 2, 81, 0); s->file_index = 4; s->user_data = 5;
  io_uring_submit(&a); usleep(10000); show(&a, "A raw4"); show(&b, "B raw4");
  /* alloc when full */
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd_alloc(s, b.ring_fd, 0, 82, 0); s->user_data = 6; io_uring_submit(&a); usleep(10000);
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd_alloc(s, b.ring_fd, 0, 83, 0); s->user_data = 7; io_uring_submit(&a); usleep(10000);
  show(&a, "A full"); show(&b, "B full");
  /* alloc with CQE_SKIP */
  struct io_uring c; io_uring_queue_init(8, &c, 0); int sp2[2] = {-1,-1}; io_uring_register_files(&c, sp2, 2);
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd_alloc(s, c.ring_fd, 0, 84, IORING_MSG_RING_CQE_SKIP); s->user_data = 8; io_uring_submit(&a); usleep(10000);
  show(&a, "A skip"); show(&c, "C skip");
  /* no table, alloc */
  struct io_uring d; io_uring_queue_init(8, &d, 0);
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd_alloc(s, d.ring_fd, 0, 85, 0); s->user_data = 9; io_uring_submit(&a); usleep(10000);
  s = io_uring_get_sqe(&a); io_uring_prep_msg_ring_fd(s, d.ring_fd, 0, 0, 86, 0); s->user_data = 10; io_uring_submit(&a); usleep(10000);
  show(&a, "A notable"); show(&d, "D notable");
  return 0;
}

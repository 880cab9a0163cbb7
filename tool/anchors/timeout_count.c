/*
 * Kernel anchor for what counts toward a TIMEOUT's count and for LINK_TIMEOUT CQEs in
 * failed chains (issue 16, A1 and B7): small SQE programs run on the kernel's own io_uring,
 * each printing its CQE stream, on a plain ring and on a SINGLE_ISSUER|DEFER_TASKRUN ring.
 * The cross-check scenarios (TimeoutCountScenarios, LinkTimeoutCqeScenarios) and
 * TimeoutExpiryCountTest hold the same expectations; the "window" cases sleep without
 * entering the ring, which the scenario harness does not do.
 *
 * build: gcc -O2 timeout_count.c -o timeout_count -luring
 * usage: timeout_count [case-name-prefix]
 * prints: <ring> <case>: [submit n] ud:res ... (| marks a 100 ms quiet wait)
 */
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef IORING_TIMEOUT_MULTISHOT
#define IORING_TIMEOUT_MULTISHOT (1U << 6)
#endif
#define MS 1000000LL
#define NEVER (10000 * MS)
#define LINK IOSQE_IO_LINK
#define SKIP IOSQE_CQE_SKIP_SUCCESS

static struct io_uring ring;
static int pfd[2];
static char buf[64];
static struct __kernel_timespec tsv[64];
static int nts;

static struct __kernel_timespec *ts(long long ns)
{
	struct __kernel_timespec *t = &tsv[nts++];
	t->tv_sec = ns / 1000000000LL;
	t->tv_nsec = ns % 1000000000LL;
	return t;
}

static void T(long long ns, unsigned count, unsigned tflags, __u64 ud, int flags)
{
	struct io_uring_sqe *s = io_uring_get_sqe(&ring);
	io_uring_prep_timeout(s, ts(ns), count, tflags);
	s->user_data = ud;
	s->flags |= flags;
}

static void LT(long long ns, __u64 ud, int flags)
{
	struct io_uring_sqe *s = io_uring_get_sqe(&ring);
	io_uring_prep_link_timeout(s, ts(ns), 0);
	s->user_data = ud;
	s->flags |= flags;
}

static void TR(__u64 target, __u64 ud)
{
	struct io_uring_sqe *s = io_uring_get_sqe(&ring);
	io_uring_prep_timeout_remove(s, target, 0);
	s->user_data = ud;
}

static void TU(__u64 target, long long ns, __u64 ud)
{
	struct io_uring_sqe *s = io_uring_get_sqe(&ring);
	io_uring_prep_timeout_update(s, ts(ns), target, 0);
	s->user_data = ud;
}

static void NOP(__u64 ud, int flags) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_nop(s); s->user_data = ud; s->flags |= flags; }
static void PIPE_READ(__u64 ud, int flags) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_read(s, pfd[0], buf, 8, -1); s->user_data = ud; s->flags |= flags; }
static void BAD_READ(__u64 ud, int flags) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_read(s, 0x3fffffff, buf, 8, 0); s->user_data = ud; s->flags |= flags; }
static void BAD_OP(__u64 ud, int flags) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_nop(s); s->opcode = 250; s->user_data = ud; s->flags |= flags; }
static void CANCEL(__u64 target, __u64 ud) { struct io_uring_sqe *s = io_uring_get_sqe(&ring); io_uring_prep_cancel64(s, target, 0); s->user_data = ud; }

static void print_cqe(struct io_uring_cqe *c)
{
	const char *more = (c->flags & IORING_CQE_F_MORE) ? "+MORE" : "";
	if (c->res < 0)
		printf(" %llu:-%s%s", (unsigned long long)c->user_data, strerrorname_np(-c->res), more);
	else
		printf(" %llu:%d%s", (unsigned long long)c->user_data, c->res, more);
}

static void SUB(void) { printf(" [submit %d]", io_uring_submit(&ring)); }

/* Reaps n CQEs (waits up to 2 s for each). */
static void R(int n)
{
	struct __kernel_timespec t = { 2, 0 };
	struct io_uring_cqe *c;
	for (int i = 0; i < n; i++) {
		if (io_uring_wait_cqe_timeout(&ring, &c, &t)) {
			printf(" (no CQE)");
			return;
		}
		print_cqe(c);
		io_uring_cqe_seen(&ring, c);
	}
}

/* Prints whatever arrives until 100 ms pass without a CQE (at most 40). */
static void Q(void)
{
	struct __kernel_timespec t = { 0, 100 * MS };
	struct io_uring_cqe *c;
	printf(" |");
	for (int i = 0; i < 40 && !io_uring_wait_cqe_timeout(&ring, &c, &t); i++) {
		print_cqe(c);
		io_uring_cqe_seen(&ring, c);
	}
}

struct kase { const char *name; void (*run)(void); };

/* A1: what counts toward a TIMEOUT's count. */
static void multi_timeout_nr(void) { T(100 * MS, 2, 0, 1, 0); T(100 * MS, 1, 0, 2, 0); NOP(3, 0); SUB(); R(3); }
static void reached_together(void) { T(NEVER, 2, 0, 1, 0); T(NEVER, 1, 0, 2, 0); T(NEVER, 1, 0, 3, 0); SUB(); NOP(4, 0); NOP(5, 0); NOP(6, 0); SUB(); R(6); }
static void removed_counts(void) { T(NEVER, 2, 0, 1, 0); T(NEVER, 0, 0, 2, 0); SUB(); TR(2, 3); SUB(); R(3); }
static void remove_enoent_counts(void) { T(NEVER, 1, 0, 1, 0); SUB(); TR(77, 2); SUB(); R(2); }
static void cancelled_counts(void) { T(NEVER, 2, 0, 1, 0); T(NEVER, 0, 0, 2, 0); SUB(); CANCEL(2, 3); SUB(); R(3); }
static void updated_expiry(void) { T(NEVER, 1, 0, 1, 0); T(NEVER, 2, 0, 2, 0); SUB(); TU(1, 20 * MS, 3); SUB(); R(2); Q(); NOP(4, 0); SUB(); R(2); }
static void link_timeout_counts(void) { T(NEVER, 2, 0, 1, 0); T(NEVER, 4, 0, 2, 0); SUB(); NOP(3, LINK); LT(NEVER, 4, 0); SUB(); R(3); PIPE_READ(5, LINK); LT(10 * MS, 6, 0); SUB(); R(3); }
static void multishot_expiries(void) { T(NEVER, 1, 0, 1, 0); T(15 * MS, 2, IORING_TIMEOUT_MULTISHOT, 2, 0); SUB(); R(2); Q(); NOP(3, 0); SUB(); R(2); }
static void chain_after_count(void) { T(NEVER, 2, 0, 1, 0); T(NEVER, 1, 0, 2, LINK); NOP(3, 0); SUB(); Q(); NOP(4, 0); SUB(); R(4); }
static void skipped_count_wraps(void) { T(NEVER, 3, 0, 1, 0); T(NEVER, 1, 0, 2, SKIP); SUB(); NOP(3, 0); SUB(); R(2); }
/* On DEFER_TASKRUN the completion's task work, added while the waiter ran its own, waits for the next wait: Q. */
static void skipped_expiry_wraps(void) { T(NEVER, 2, 0, 1, 0); T(10 * MS, 0, IORING_TIMEOUT_ETIME_SUCCESS, 2, SKIP); SUB(); Q(); Q(); }
/* The window between a timer's expiry and its CQE (DEFER_TASKRUN: task work waits for a wait). */
static void window_new_timeout(void) { T(MS, 0, 0, 1, 0); SUB(); usleep(50000); T(NEVER, 1, 0, 2, 0); SUB(); Q(); }
static void window_remove(void) { T(MS, 0, 0, 1, 0); SUB(); usleep(50000); TR(1, 2); SUB(); R(2); }
static void window_skipped_nop(void) { T(NEVER, 3, 0, 5, 0); SUB(); T(MS, 0, 0, 1, 0); SUB(); usleep(50000); NOP(3, SKIP); SUB(); Q(); }

/* B7: a LINK_TIMEOUT after a member that succeeds, fails at issue or fails at prep. */
#define B7(name, member, mflags, tflags) \
	static void name(void) { member(1, LINK | (mflags)); LT(NEVER, 2, tflags); NOP(9, 0); SUB(); Q(); }
B7(lt_ok, NOP, 0, 0) B7(lt_ok_mskip, NOP, SKIP, 0) B7(lt_ok_tskip, NOP, 0, SKIP) B7(lt_ok_both, NOP, SKIP, SKIP)
B7(lt_issue, BAD_READ, 0, 0) B7(lt_issue_mskip, BAD_READ, SKIP, 0) B7(lt_issue_tskip, BAD_READ, 0, SKIP) B7(lt_issue_both, BAD_READ, SKIP, SKIP)
B7(lt_prep, BAD_OP, 0, 0) B7(lt_prep_mskip, BAD_OP, SKIP, 0) B7(lt_prep_tskip, BAD_OP, 0, SKIP) B7(lt_prep_both, BAD_OP, SKIP, SKIP)
static void lt_prep_rest(void) { BAD_OP(1, LINK | SKIP); LT(NEVER, 2, LINK); NOP(3, 0); NOP(9, 0); SUB(); Q(); }
static void lt_prep_rest_tskip(void) { BAD_OP(1, LINK); LT(NEVER, 2, LINK | SKIP); NOP(3, SKIP); NOP(9, 0); SUB(); Q(); }
static void lt_behind_prep_head(void) { NOP(1, LINK | SKIP); BAD_OP(2, LINK); LT(NEVER, 3, 0); NOP(9, 0); SUB(); Q(); }
static void lt_behind_prep_tskip(void) { NOP(1, LINK); BAD_OP(2, LINK); LT(NEVER, 3, SKIP); NOP(9, 0); SUB(); Q(); }
static void lt_down_failed_chain(void) { BAD_READ(1, LINK); NOP(2, LINK); LT(NEVER, 3, SKIP); NOP(9, 0); SUB(); Q(); }
static void lt_async_member(void) { BAD_READ(1, LINK | IOSQE_ASYNC | SKIP); LT(NEVER, 2, SKIP); NOP(9, 0); SUB(); Q(); }

static const struct kase cases[] = {
	{ "count/multi_timeout_nr", multi_timeout_nr }, { "count/reached_together", reached_together },
	{ "count/removed_counts", removed_counts }, { "count/remove_enoent_counts", remove_enoent_counts },
	{ "count/cancelled_counts", cancelled_counts }, { "count/updated_expiry", updated_expiry },
	{ "count/link_timeout_counts", link_timeout_counts }, { "count/multishot_expiries", multishot_expiries },
	{ "count/chain_after_count", chain_after_count }, { "count/skipped_count_wraps", skipped_count_wraps },
	{ "count/skipped_expiry_wraps", skipped_expiry_wraps },
	{ "window/new_timeout", window_new_timeout }, { "window/remove", window_remove },
	{ "window/skipped_nop", window_skipped_nop },
	{ "lt/ok", lt_ok }, { "lt/ok_mskip", lt_ok_mskip }, { "lt/ok_tskip", lt_ok_tskip }, { "lt/ok_both", lt_ok_both },
	{ "lt/issue", lt_issue }, { "lt/issue_mskip", lt_issue_mskip }, { "lt/issue_tskip", lt_issue_tskip },
	{ "lt/issue_both", lt_issue_both }, { "lt/prep", lt_prep }, { "lt/prep_mskip", lt_prep_mskip },
	{ "lt/prep_tskip", lt_prep_tskip }, { "lt/prep_both", lt_prep_both }, { "lt/prep_rest", lt_prep_rest },
	{ "lt/prep_rest_tskip", lt_prep_rest_tskip }, { "lt/behind_prep_head", lt_behind_prep_head },
	{ "lt/behind_prep_tskip", lt_behind_prep_tskip }, { "lt/down_failed_chain", lt_down_failed_chain },
	{ "lt/async_member", lt_async_member },
};

int main(int argc, char **argv)
{
	const char *prefix = argc > 1 ? argv[1] : "";
	for (int defer = 0; defer < 2; defer++) {
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct io_uring_params p;
			if (strncmp(cases[i].name, prefix, strlen(prefix)))
				continue;
			memset(&p, 0, sizeof(p));
			if (defer)
				p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
			if (io_uring_queue_init_params(64, &ring, &p) || pipe(pfd)) {
				perror("setup");
				return 1;
			}
			nts = 0;
			printf("%s %s:", defer ? "defer" : "plain", cases[i].name);
			cases[i].run();
			printf("\n");
			io_uring_queue_exit(&ring);
			close(pfd[0]);
			close(pfd[1]);
		}
	}
	return 0;
}

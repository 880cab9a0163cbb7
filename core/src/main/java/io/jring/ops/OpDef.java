package io.jring.ops;

import io.jring.Sqe;
import io.jring.core.Request;

/**
 * How one opcode is prepared and issued (the kernel's {@code io_issue_def}). Stateless:
 * one instance per opcode in {@link OpTable}. Results follow the io_uring convention:
 * {@code >= 0} or {@code -errno}, plus the two markers below.
 *
 * <p>Request and OpDef name each other, as the kernel's io_kiocb and io_issue_def do: a
 * request carries its op's row (one load on every issue, no table lookup) and the row's
 * functions take the request. Splitting them would add an indirection on the hot path.
 */
public abstract class OpDef {
    /** issue(): the op took ownership of the request (armed a poll, a timer...); no result yet. */
    public static final int ISSUE_QUEUED = Integer.MIN_VALUE;

    /** Accepts {@code SqeFlags.BUFFER_SELECT}. */
    public boolean bufferSelect() {
        return false;
    }

    /**
     * Reads {@code sqe->ioprio} (Linux's {@code io_issue_def.ioprio}): reads and writes take an
     * I/O priority, ACCEPT, SEND and RECV flags. Every other op refuses a non-zero ioprio
     * with -EINVAL before its prep runs.
     */
    public boolean ioprio() {
        return false;
    }

    /** Runs on io-wq's bounded account when punted (regular files), else unbound. */
    public boolean boundedWork() {
        return true;
    }

    /**
     * This (prepared) request always runs in io-wq, never inline (fsync, openat, close of a
     * descriptor: they may block).
     */
    public boolean forceAsync(Request req) {
        return false;
    }

    /**
     * Must run inline under the posting right even with {@code SqeFlags.ASYNC}: it changes
     * ring state (provided buffers, armed polls, fixed-file slots) that workers may not
     * touch. Asked of the prepared request.
     */
    public boolean inlineOnly(Request req) {
        return false;
    }

    /** Called on the submitting side just before the request goes to io-wq (e.g. to hash it). */
    public void preparePunt(Request req) {
    }

    /**
     * Copies and validates the SQE into the request (submitting thread). Returns 0 or
     * {@code -errno}; the request then completes with that error without being issued.
     */
    public abstract int prep(Request req, Sqe sqe);

    /**
     * The poll events to wait for when {@link #issue} returned -EAGAIN on a pollable file
     * (socket, pipe, eventfd, tty): the request is armed and retried on readiness. 0 = the
     * file is not pollable (a regular file): the request goes to io-wq instead.
     */
    public int pollMask(Request req) {
        return 0;
    }

    /**
     * Linux's REQ_F_NOWAIT (MSG_DONTWAIT, RWF_NOWAIT, ACCEPT's DONTWAIT): the caller wants
     * -EAGAIN rather than a wait, so an attempt that would block completes with it at once,
     * inline, never armed on poll nor handed to io-wq (io_queue_async).
     */
    public boolean nowait(Request req) {
        return false;
    }

    /**
     * The inline attempt failed with {@code res}, and Linux completes such a failure through
     * task work rather than at once (rw.c: a write's error from the file's write_iter goes
     * through kiocb_done and io_complete_rw), so its CQE follows the CQEs the same submit
     * posts inline.
     */
    public boolean failsThroughTaskWork(Request req, int res) {
        return false;
    }

    /**
     * The negative result {@code res} of this op's own issue is only its result, no failure
     * (Linux sets the result without {@code req_set_fail}, as truncate.c does): a chain after
     * it goes on and CQE_SKIP_SUCCESS still holds. Never asked for -ECANCELED.
     */
    public boolean errorIsResult(Request req, int res) {
        return false;
    }

    /**
     * The inline attempt got -EAGAIN on pages being read into the page cache (a buffered
     * read that missed it): the request waits for them (Linux's IOCB_WAITQ page-wait
     * retry) instead of going to io-wq.
     */
    public boolean waitsForPages(Request req) {
        return false;
    }

    /** The poll wait stays armed after readiness (multishot POLL_ADD and ACCEPT). */
    public boolean pollMultishot(Request req) {
        return false;
    }

    /**
     * The armed request's file reported {@code revents}: by default retry the operation
     * inline ({@link #issue} non-blocking). Ops that complete on readiness itself (POLL_ADD)
     * or stay armed (multishot) override it. Same results as {@link #issue}.
     */
    public int pollReady(Request req, int revents) {
        return issue(req, true);
    }

    /**
     * Performs the operation. {@code nonBlocking}: the inline attempt in the submitting
     * thread, which must not block: return {@code -EAGAIN} to be punted or polled.
     * Otherwise called from an io-wq worker and may block.
     */
    public abstract int issue(Request req, boolean nonBlocking);
}

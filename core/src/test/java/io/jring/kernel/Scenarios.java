package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.cancelFd;
import static io.jring.kernel.SqeSpec.fsync;
import static io.jring.kernel.SqeSpec.linkTimeout;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.pollAdd;
import static io.jring.kernel.SqeSpec.pollMultishot;
import static io.jring.kernel.SqeSpec.pollRemove;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.rawOpcode;
import static io.jring.kernel.SqeSpec.read;
import static io.jring.kernel.SqeSpec.readSelect;
import static io.jring.kernel.SqeSpec.readv;
import static io.jring.kernel.SqeSpec.removeBuffers;
import static io.jring.kernel.SqeSpec.timeout;
import static io.jring.kernel.SqeSpec.timeoutRemove;
import static io.jring.kernel.SqeSpec.timeoutUpdate;
import static io.jring.kernel.SqeSpec.write;
import static io.jring.kernel.SqeSpec.writev;

import io.jring.Cancel;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Poll;
import io.jring.Timeout;
import java.util.ArrayList;
import java.util.List;

/**
 * The conformance scenarios as data (issue 5, "Cross-check against the kernel"): each one a
 * small io_uring conversation from one of liburing's tests and the CQEs Linux answers with.
 * {@link KernelCrossCheckTest} runs every scenario on the kernel's io_uring and on jring.
 * Expectations were taken from Linux 6.18 itself; where the order of CQEs is not defined by
 * Linux (independent requests finishing "at the same time"), a group says "any order".
 */
public final class Scenarios {
    private Scenarios() {}

    static final long MS = 1_000_000L;
    /** Long enough never to expire during a test: such timers are always removed or cancelled. */
    static final long NEVER = 10_000 * MS;
    static final int BAD_OPCODE = 250;

    static final int ECANCELED = -Errno.ECANCELED;
    static final int ETIME = -Errno.ETIME;
    static final int ENOENT = -Errno.ENOENT;
    static final int EBADF = -Errno.EBADF;
    static final int EINVAL = -Errno.EINVAL;
    static final int IN = Poll.IN;
    static final int MORE = CqeFlags.MORE;

    public static List<Scenario> all() {
        List<Scenario> all = new ArrayList<>();
        addNop(all);
        addLink(all);
        addDrain(all);
        addSkipCqe(all);
        addSkipThenDrain(all);
        addTimeouts(all);
        addLinkTimeouts(all);
        addTimeoutFlags(all);
        addCancel(all);
        addMoreCancel(all);
        addPoll(all);
        addProvidedBuffers(all);
        addFiles(all);
        addReadWrite(all);
        PollScenarios.add(all);
        TimeoutCountScenarios.add(all);
        LinkTimeoutCqeScenarios.add(all);
        PrepIssueScenarios.add(all);
        DataOpScenarios.add(all);
        CancelOrderScenarios.add(all);
        BindListenScenarios.add(all);
        SpliceScenarios.add(all);
        BufRingScenarios.add(all);
        FtruncateScenarios.add(all);
        MsgScenarios.add(all);
        return all;
    }

    private static void addNop(List<Scenario> all) {
        all.add(Scenario.named("nop: res 0 and the user data back", "nop.c")
                .submit(nop().ud(0xDEAD_BEEF_CAFEL))
                .expect(cqe(0xDEAD_BEEF_CAFEL, 0))
                .build());
        all.add(Scenario.named("nop: a batch completes in submission order", "nop.c")
                .submit(nop().ud(1), nop().ud(2), nop().ud(3), nop().ud(4), nop().ud(5), nop().ud(6))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(6, 0))
                .build());
        all.add(Scenario.named("nop: an invalid opcode ends the submit, the rest waits for the next", "nop.c")
                .submitExpecting(2, nop().ud(1), rawOpcode(BAD_OPCODE).ud(2), nop().ud(3))
                .reap(2)
                .submitExpecting(1)
                .expect(cqe(1, 0), cqe(2, EINVAL), cqe(3, 0))
                .build());
        all.add(Scenario.named("nop: an unknown SQE flag is -EINVAL", "nop.c")
                .submit(nop().ud(1).flags(0x80))
                .expect(cqe(1, EINVAL))
                .build());
    }

    private static void addLink(List<Scenario> all) {
        all.add(Scenario.named("link: a member failing before issue posts the head now, the rest after later SQEs", "link.c")
                .submitExpecting(4, nop().ud(1).link(), rawOpcode(BAD_OPCODE).ud(2).link(), nop().ud(3), nop().ud(4))
                .expect(cqe(1, ECANCELED), cqe(4, 0), cqe(2, EINVAL), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link: a chain of three NOPs runs in order", "link.c")
                .submit(nop().ud(1).link(), nop().ud(2).link(), nop().ud(3))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0))
                .build());
        all.add(Scenario.named("link: a failed head cancels the rest", "link.c")
                .submit(removeBuffers(10, 1).ud(1).link(), nop().ud(2))
                .expect(cqe(1, ENOENT), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link: a failure in the middle cancels what follows", "link.c")
                .submit(nop().ud(1).link(), read("bad", 8, 0).ud(2).link(), nop().ud(3).link(), nop().ud(4))
                .expect(cqe(1, 0), cqe(2, EBADF), cqe(3, ECANCELED), cqe(4, ECANCELED))
                .build());
        all.add(Scenario.named("link: two chains, one failing, do not affect each other", "link.c")
                .submit(read("bad", 8, 0).ud(1).link(), nop().ud(2), nop().ud(3).link(), nop().ud(4))
                .expectAnyOrder(cqe(1, EBADF), cqe(2, ECANCELED), cqe(3, 0), cqe(4, 0))
                .build());
        all.add(Scenario.named("link: a short file read breaks the chain", "link.c")
                .file("0123456789")
                .submit(read("file", 64, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 10), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link: a short pipe read breaks the chain", "link.c")
                .write("p0.w", "abc")
                .submit(read("p0.r", 64, -1).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 3), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link: a full read keeps the chain", "link.c")
                .file("0123456789")
                .submit(read("file", 10, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 10), cqe(2, 0))
                .build());
        all.add(Scenario.named("hardlink: a failure does not cancel the rest", "link.c")
                .submit(read("bad", 8, 0).ud(1).hardlink(), nop().ud(2))
                .expect(cqe(1, EBADF), cqe(2, 0))
                .build());
        all.add(Scenario.named("hardlink: expiring timeouts continue the chain", "link.c")
                .submit(timeout(10 * MS, 0, 0).ud(1).hardlink(), timeout(15 * MS, 0, 0).ud(2).hardlink(), nop().ud(3))
                .expect(cqe(1, ETIME), cqe(2, ETIME), cqe(3, 0))
                .build());
        all.add(Scenario.named("link: a chain ends at the end of a submit", "link.c")
                .submit(read("bad", 8, 0).ud(1).link())
                .reap(1)
                .submit(nop().ud(2))
                .expect(cqe(1, EBADF), cqe(2, 0))
                .build());
        all.add(Scenario.named("link: an invalid opcode inside a chain fails the chain, the submit goes on", "link.c")
                .submit(nop().ud(1).link(), rawOpcode(BAD_OPCODE).ud(2).link(), nop().ud(3), nop().ud(4))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, EINVAL), cqe(3, ECANCELED), cqe(4, 0))
                .build());
        all.add(Scenario.named("link: an invalid opcode ending a chain ends the submit", "link.c")
                .submitExpecting(2, nop().ud(1).link(), rawOpcode(BAD_OPCODE).ud(2), nop().ud(3))
                .reap(2)
                .submitExpecting(1)
                .expect(cqe(1, ECANCELED), cqe(2, EINVAL), cqe(3, 0))
                .build());
    }

    private static void addDrain(List<Scenario> all) {
        all.add(Scenario.named("drain: a drain inside a chain keeps everything in order", "link_drain.c")
                .file("")
                .submit(write("file", "hello", 0).ud(0), nop().ud(1).link(), nop().ud(2).link().drain(), nop().ud(3),
                        nop().ud(4))
                .expect(cqe(0, 5), cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0))
                .build());
        all.add(Scenario.named("drain: two chains with drains keep everything in order", "link_drain.c")
                .file("")
                .submit(write("file", "hello", 0).ud(0), nop().ud(1).link(), nop().ud(2).link().drain(), nop().ud(3),
                        nop().ud(4).link(), nop().ud(5).link(), write("file", "world", 5).ud(6).link().drain(),
                        nop().ud(7), nop().ud(8))
                .expect(cqe(0, 5), cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(6, 5), cqe(7, 0),
                        cqe(8, 0))
                .build());
        all.add(Scenario.named("drain: waits for a pending read, and later SQEs wait for it", "link_drain.c")
                .submit(read("p0.r", 8, -1).ud(1), nop().ud(2).drain(), nop().ud(3))
                .quiet()
                .write("p0.w", "hey")
                .expect(cqe(1, 3), cqe(2, 0), cqe(3, 0))
                .build());
        all.add(Scenario.named("drain: after a removed multishot poll it comes last", "multicqes_drain.c")
                .submit(pollMultishot("p0.r", IN).ud(10), pollAdd("p1.r", IN).ud(11))
                .write("p0.w", "a")
                .reap(1)
                .read("p0.r", 1)
                .write("p0.w", "b")
                .reap(1)
                .read("p0.r", 1)
                .write("p1.w", "c")
                .reap(1)
                .submit(pollRemove(10).ud(12), nop().ud(13).drain())
                .expect(cqe(10, IN, MORE), cqe(10, IN, MORE), cqe(11, IN))
                .expectAnyOrder(cqe(10, ECANCELED), cqe(12, 0))
                .expect(cqe(13, 0))
                .build());
        all.add(Scenario.named("drain: waits for an earlier timeout", "link_drain.c")
                .submit(timeout(30 * MS, 0, 0).ud(1), nop().ud(2).drain())
                .expect(cqe(1, ETIME), cqe(2, 0))
                .build());
        all.add(Scenario.named("drain: runs after the cancellations of an earlier failed chain", "link_drain.c")
                .submit(read("bad", 8, 0).ud(1).link(), nop().ud(2), nop().ud(3).drain())
                .expect(cqe(1, EBADF), cqe(2, ECANCELED), cqe(3, 0))
                .build());
        all.add(Scenario.named("drain: an ASYNC_CANCEL after a pending drain waits for it too", "link_drain.c")
                .submit(read("p0.r", 8, -1).ud(1), nop().ud(2).drain())
                .submit(cancel(2, 0).ud(3))
                .quiet()
                .write("p0.w", "x")
                .expect(cqe(1, 1), cqe(2, 0), cqe(3, ENOENT))
                .build());
    }

    private static void addSkipCqe(List<Scenario> all) {
        all.add(Scenario.named("skip-cqe: a chain of skipped successes posts only its last CQE", "skip-cqe.c")
                .submit(nop().ud(0).link().skip(), nop().ud(1).link().skip(), nop().ud(2).link().skip(),
                        nop().ud(3).link().skip(), nop().ud(4).link().skip(), nop().ud(5))
                .expect(cqe(5, 0))
                .build());
        all.add(Scenario.named("skip-cqe: a chain skipping every success posts nothing", "skip-cqe.c")
                .submit(nop().ud(0).link().skip(), nop().ud(1).link().skip(), nop().ud(2).skip())
                .quiet()
                .submit(nop().ud(9))
                .expect(cqe(9, 0))
                .build());
        all.add(Scenario.named("skip-cqe: a failing member with skip posts its failure and hides the cancelled rest",
                        "skip-cqe.c")
                .submit(nop().ud(0).link().skip(), nop().ud(1).link().skip(), nop().ud(2).link().skip(),
                        write("bad", "x", 0).ud(3).link().skip(), nop().ud(4).link().skip(), nop().ud(5))
                .expect(cqe(3, EBADF))
                .build());
        all.add(Scenario.named("skip-cqe: cancelled members post even with skip when the failure has none",
                        "skip-cqe.c")
                .submit(nop().ud(0).link().skip(), read("bad", 8, 0).ud(1).link(), nop().ud(2).link().skip(),
                        nop().ud(3))
                .expect(cqe(1, EBADF), cqe(2, ECANCELED), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("skip-cqe: a hardlinked chain skips one success and posts the failure", "skip-cqe.c")
                .submit(nop().ud(0).hardlink().skip(), nop().ud(1).hardlink(), nop().ud(2).hardlink(),
                        write("bad", "x", 0).ud(3).hardlink(), nop().ud(4).hardlink(), nop().ud(5).hardlink(),
                        nop().ud(6))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, EBADF), cqe(4, 0), cqe(5, 0), cqe(6, 0))
                .build());
        all.add(Scenario.named("skip-cqe: a linked timeout with skip, disarmed by its request, posts nothing",
                        "skip-cqe.c")
                .submit(nop().ud(0).link(), linkTimeout(NEVER, 0).ud(1).skip())
                .expect(cqe(0, 0))
                .build());
        all.add(Scenario.named("skip-cqe: an expiring linked timeout with skip posts nothing, its read does",
                        "skip-cqe.c")
                .submit(read("p0.r", 1, -1).ud(0).link(), linkTimeout(10 * MS, 0).ud(1).skip())
                .expect(cqe(0, ECANCELED))
                .build());
        all.add(Scenario.named("skip-cqe: a read with skip cancelled by its linked timeout still posts", "skip-cqe.c")
                .submit(read("p0.r", 1, -1).ud(0).link().skip(), linkTimeout(10 * MS, 0).ud(1))
                .expectAnyOrder(cqe(0, ECANCELED), cqe(1, ETIME))
                .build());
    }

    private static void addSkipThenDrain(List<Scenario> all) {
        all.add(Scenario.named("skip-cqe: once a ring has seen skip, a drain is -EOPNOTSUPP and ends the submit",
                        "skip-cqe.c")
                .submit(nop().ud(1).drain())
                .reap(1)
                .submit(nop().ud(2).skip())
                .submitExpecting(1, nop().ud(3).drain(), nop().ud(4))
                .reap(1)
                .submitExpecting(1)
                .expect(cqe(1, 0), cqe(3, -Errno.EOPNOTSUPP), cqe(4, 0))
                .build());
    }

    private static void addTimeouts(List<Scenario> all) {
        all.add(Scenario.named("timeout: a relative timeout expires with -ETIME", "timeout.c")
                .submit(timeout(20 * MS, 0, 0).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout: count 1 completes with 0 after one later completion", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1))
                .quiet()
                .submit(nop().ud(2))
                .expect(cqe(2, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout: count 2 waits for two completions", "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1))
                .submit(nop().ud(2))
                .reap(1)
                .quiet()
                .submit(nop().ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout: a NOP ahead of it in the same submit counts", "timeout.c")
                .submit(nop().ud(1), timeout(NEVER, 1, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout: another timeout's expiry does not count", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1), timeout(20 * MS, 0, 0).ud(2))
                .reap(1)
                .quiet()
                .submit(nop().ud(3))
                .expect(cqe(2, ETIME), cqe(3, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout: an absolute deadline (CLOCK_MONOTONIC)", "timeout.c")
                .submit(timeout(20 * MS, 0, Timeout.ABS).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout: an absolute deadline in the past expires at once", "timeout.c")
                .submit(timeout(-1000 * MS, 0, Timeout.ABS).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout: TIMEOUT_REMOVE cancels a pending timeout", "timeout.c")
                .submit(timeout(NEVER, 0, 0).ud(1))
                .submit(timeoutRemove(1).ud(2))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout: TIMEOUT_REMOVE of an unknown user data is -ENOENT", "timeout.c")
                .submit(timeoutRemove(77).ud(2))
                .expect(cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("timeout: TIMEOUT_REMOVE of an expired timeout is -ENOENT", "timeout.c")
                .submit(timeout(MS, 0, 0).ud(1))
                .reap(1)
                .submit(timeoutRemove(1).ud(2))
                .expect(cqe(1, ETIME), cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("timeout: timers expire in deadline order", "timeout.c")
                .submit(timeout(150 * MS, 0, 0).ud(1), timeout(30 * MS, 0, 0).ud(2), timeout(90 * MS, 0, 0).ud(3))
                .expect(cqe(2, ETIME), cqe(3, ETIME), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout: an expiring TIMEOUT fails its link", "timeout.c")
                .submit(timeout(10 * MS, 0, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, ETIME), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("timeout: a TIMEOUT completed by its count continues its link", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1).link(), nop().ud(2))
                .quiet()
                .submit(nop().ud(3))
                .expect(cqe(3, 0), cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout: POLL_REMOVE does not find a timeout", "timeout.c")
                .submit(timeout(NEVER, 0, 0).ud(1))
                .submit(pollRemove(1).ud(2))
                .reap(1)
                .submit(timeoutRemove(1).ud(3))
                .expect(cqe(2, ENOENT))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(3, 0))
                .build());
    }

    /** The timeout flags beyond ABS (Linux's timeout.c): clocks, ETIME_SUCCESS, MULTISHOT, updates. */
    private static void addTimeoutFlags(List<Scenario> all) {
        all.add(Scenario.named("timeout flags: a relative CLOCK_BOOTTIME timeout expires", "timeout.c")
                .submit(timeout(20 * MS, 0, Timeout.BOOTTIME).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: an absolute CLOCK_REALTIME deadline 20 ms ahead", "timeout.c")
                .submit(timeout(20 * MS, 0, Timeout.REALTIME | Timeout.ABS).ud(1))
                .quiet()
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: an absolute CLOCK_REALTIME deadline in the past", "timeout.c")
                .submit(timeout(-1000 * MS, 0, Timeout.REALTIME | Timeout.ABS).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: an absolute CLOCK_BOOTTIME deadline", "timeout.c")
                .submit(timeout(20 * MS, 0, Timeout.BOOTTIME | Timeout.ABS).ud(1))
                .expect(cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: two clocks, MULTISHOT with ABS, an unknown flag are -EINVAL", "timeout.c")
                .submit(timeout(MS, 0, Timeout.BOOTTIME | Timeout.REALTIME).ud(1))
                .submit(timeout(MS, 0, Timeout.MULTISHOT | Timeout.ABS).ud(2))
                .submit(timeout(MS, 0, 1 << 7).ud(3))
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, EINVAL))
                .build());
        all.add(Scenario.named("timeout flags: with ETIME_SUCCESS expiry does not fail the link", "timeout.c")
                .submit(timeout(10 * MS, 0, Timeout.ETIME_SUCCESS).ud(1).link(), nop().ud(2))
                .expect(cqe(1, ETIME), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout flags: with ETIME_SUCCESS, CQE_SKIP_SUCCESS skips the -ETIME", "timeout.c")
                .submit(timeout(10 * MS, 0, Timeout.ETIME_SUCCESS).ud(1).skip())
                .quiet()
                .submit(nop().ud(2))
                .expect(cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout flags: MULTISHOT with count 3 fires three times, the last without MORE", "timeout.c")
                .submit(timeout(10 * MS, 3, Timeout.MULTISHOT).ud(1))
                .expect(cqe(1, ETIME, MORE), cqe(1, ETIME, MORE), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: a MULTISHOT count is expiries, not completions", "timeout.c")
                .submit(timeout(20 * MS, 2, Timeout.MULTISHOT).ud(1))
                .submit(nop().ud(2))
                .submit(nop().ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, ETIME, MORE), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: removing an endless MULTISHOT ends it with -ECANCELED", "timeout.c")
                .submit(timeout(NEVER, 0, Timeout.MULTISHOT).ud(1))
                .submit(timeoutRemove(1).ud(2))
                .expect(cqe(2, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("timeout flags: UPDATE moves the expiry and stops the count", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1))
                .submit(timeoutUpdate(1, 20 * MS, 0).ud(2))
                .submit(nop().ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: UPDATE to an absolute time in the past expires at once", "timeout.c")
                .submit(timeout(NEVER, 0, 0).ud(1))
                .submit(timeoutUpdate(1, -1000 * MS, Timeout.ABS).ud(2))
                .expect(cqe(2, 0), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout flags: UPDATE of no timeout is -ENOENT, with a clock flag -EINVAL", "timeout.c")
                .submit(timeoutUpdate(99, 10 * MS, 0).ud(1))
                .submit(timeoutUpdate(99, 10 * MS, Timeout.BOOTTIME).ud(2))
                .expect(cqe(1, ENOENT), cqe(2, EINVAL))
                .build());
        all.add(Scenario.named("timeout flags: LINK_TIMEOUT_UPDATE shortens an armed link timeout", "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), linkTimeout(NEVER, 0).ud(2))
                .quiet()
                .submit(timeoutUpdate(2, 20 * MS, Timeout.LINK_TIMEOUT_UPDATE).ud(3))
                .expect(cqe(3, 0))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME))
                .build());
    }

    private static void addLinkTimeouts(List<Scenario> all) {
        all.add(Scenario.named("link-timeout: expiry cancels a pending pipe read", "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), linkTimeout(20 * MS, 0).ud(2))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME))
                .build());
        all.add(Scenario.named("link-timeout: the request finishing first cancels the timeout", "link-timeout.c")
                .submit(nop().ud(1).link(), linkTimeout(NEVER, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout: a read with data ready wins", "link-timeout.c")
                .write("p0.w", "hey")
                .submit(read("p0.r", 3, -1).ud(1).link(), linkTimeout(NEVER, 0).ud(2))
                .expect(cqe(1, 3), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout: one without a linked request before it is -EINVAL", "link-timeout.c")
                .submitExpecting(1, linkTimeout(10 * MS, 0).ud(1), nop().ud(2))
                .reap(1)
                .submitExpecting(1)
                .expect(cqe(1, EINVAL), cqe(2, 0))
                .build());
        all.add(Scenario.named("link-timeout: heading a chain it is -EINVAL and fails the chain", "link-timeout.c")
                .submit(linkTimeout(10 * MS, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, EINVAL), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout: one after another is -EINVAL and fails the chain", "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), linkTimeout(20 * MS, 0).ud(2).link(),
                        linkTimeout(20 * MS, 0).ud(3))
                .expect(cqe(1, ECANCELED), cqe(2, ECANCELED), cqe(3, EINVAL))
                .build());
        all.add(Scenario.named("link-timeout: a hardlinked request cancelled by it lets the chain go on",
                        "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).hardlink(), linkTimeout(20 * MS, 0).ud(2).hardlink(), nop().ud(3))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME))
                .expect(cqe(3, 0))
                .build());
        all.add(Scenario.named("link-timeout: expiry cancels the rest of the chain too", "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), linkTimeout(20 * MS, 0).ud(2).link(), nop().ud(3))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout: it times the member it follows, not the chain", "link-timeout.c")
                .submit(nop().ud(1).link(), read("p0.r", 8, -1).ud(2).link(), linkTimeout(20 * MS, 0).ud(3))
                .expect(cqe(1, 0))
                .expectAnyOrder(cqe(2, ECANCELED), cqe(3, ETIME))
                .build());
        all.add(Scenario.named("link-timeout: it cancels a TIMEOUT that would expire later", "link-timeout.c")
                .submit(timeout(NEVER, 0, 0).ud(1).link(), linkTimeout(20 * MS, 0).ud(2))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME))
                .build());
        all.add(Scenario.named("link-timeout: a TIMEOUT expiring first disarms it", "link-timeout.c")
                .submit(timeout(20 * MS, 0, 0).ud(1).link(), linkTimeout(NEVER, 0).ud(2))
                .expect(cqe(1, ETIME), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout: an absolute deadline in the past expires at once", "link-timeout.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), linkTimeout(-1000 * MS, Timeout.ABS).ud(2))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, ETIME))
                .build());
    }

    private static void addCancel(List<Scenario> all) {
        all.add(Scenario.named("io-cancel: cancels a pending pipe read", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1))
                .submit(cancel(1, 0).ud(2))
                .expectAnyOrder(cancelled(1), cqe(2, 0))
                .build());
        all.add(Scenario.named("io-cancel: an unknown user data is -ENOENT", "io-cancel.c")
                .submit(cancel(77, 0).ud(2))
                .expect(cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("io-cancel: a completed request is -ENOENT", "io-cancel.c")
                .submit(nop().ud(1))
                .reap(1)
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("io-cancel: ALL cancels every request with the user data and counts them",
                        "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(5), read("p0.r", 8, -1).ud(5), pollAdd("p1.r", IN).ud(5),
                        read("p1.r", 8, -1).ud(6))
                .submit(cancel(5, Cancel.ALL).ud(9))
                .expectAnyOrder(cancelled(5), cancelled(5), cancelled(5), cqe(9, 3))
                .write("p1.w", "z")
                .expect(cqe(6, 1))
                .build());
        all.add(Scenario.named("io-cancel: ANY|ALL cancels reads, polls and timeouts", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1), read("p0.r", 8, -1).ud(2), pollAdd("p1.r", IN).ud(3),
                        timeout(NEVER, 0, 0).ud(4))
                .submit(cancel(0, Cancel.ANY | Cancel.ALL).ud(9))
                .expectAnyOrder(cancelled(1), cancelled(2), cancelled(3), cancelled(4), cqe(9, 4))
                .build());
        all.add(Scenario.named("io-cancel: FD|ALL cancels the requests on one descriptor", "poll-cancel-all.c")
                .submit(read("p0.r", 8, -1).ud(1), pollAdd("p0.r", IN).ud(2), read("p1.r", 8, -1).ud(3))
                .submit(cancelFd("p0.r", Cancel.ALL).ud(9))
                .reap(3)
                .write("p1.w", "x")
                .expectAnyOrder(cancelled(1), cancelled(2), cqe(9, 2))
                .expect(cqe(3, 1))
                .build());
        all.add(Scenario.named("io-cancel: cancels a timeout", "io-cancel.c")
                .submit(timeout(NEVER, 0, 0).ud(1))
                .submit(cancel(1, 0).ud(2))
                .expectAnyOrder(cancelled(1), cqe(2, 0))
                .build());
        all.add(Scenario.named("io-cancel: cancelling a chain's head cancels the chain", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), nop().ud(2))
                .submit(cancel(1, 0).ud(3))
                .expectAnyOrder(cancelled(1), cqe(3, 0))
                .expect(cancelled(2))
                .build());
        all.add(Scenario.named("io-cancel: a request waiting for its link is not found", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1).link(), nop().ud(2))
                .submit(cancel(2, 0).ud(3))
                .reap(1)
                .write("p0.w", "12345678")
                .expect(cqe(3, ENOENT), cqe(1, 8), cqe(2, 0))
                .build());
    }

    private static void addMoreCancel(List<Scenario> all) {
        all.add(Scenario.named("io-cancel: ANY without ALL still cancels every request, and counts them", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1), read("p0.r", 8, -1).ud(2))
                .submit(cancel(0, Cancel.ANY).ud(9))
                .expectAnyOrder(cancelled(1), cancelled(2), cqe(9, 2))
                .build());
        all.add(Scenario.named("io-cancel: ALL or ANY with nothing to cancel is 0, not -ENOENT", "io-cancel.c")
                .submit(cancel(77, Cancel.ALL).ud(1), cancel(0, Cancel.ANY).ud(2), cancelFd("p0.r", Cancel.ALL).ud(3))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0))
                .build());
        all.add(Scenario.named("io-cancel: FD without ALL cancels one request per call, then -ENOENT", "io-cancel.c")
                .submit(read("p0.r", 8, -1).ud(1))
                .submit(cancelFd("p0.r", 0).ud(9))
                .reap(2)
                .submit(cancelFd("p0.r", 0).ud(10))
                .expectAnyOrder(cancelled(1), cqe(9, 0))
                .expect(cqe(10, ENOENT))
                .build());
    }

    private static void addPoll(List<Scenario> all) {
        all.add(Scenario.named("poll-cancel: POLL_REMOVE cancels an armed poll", "poll-cancel.c")
                .submit(pollAdd("p0.r", IN).ud(1))
                .submit(pollRemove(1).ud(2))
                .expectAnyOrder(cancelled(1), cqe(2, 0))
                .build());
        all.add(Scenario.named("poll: POLL_ADD completes with the ready events", "poll.c")
                .write("p0.w", "x")
                .submit(pollAdd("p0.r", IN).ud(1))
                .expect(cqe(1, IN))
                .build());
        all.add(Scenario.named("poll: an armed POLL_ADD completes when data arrives", "poll.c")
                .submit(pollAdd("p0.r", IN).ud(1))
                .quiet()
                .write("p0.w", "x")
                .expect(cqe(1, IN))
                .build());
        all.add(Scenario.named("poll: closing the write end gives POLLHUP; a multishot poll stays armed", "poll.c")
                .submit(pollAdd("p0.r", IN).ud(1), pollMultishot("p0.r", IN).ud(2))
                .quiet()
                .close("p0.w")
                .reap(2)
                .quiet()
                .submit(pollRemove(2).ud(3))
                .expectAnyOrder(cqe(1, Poll.HUP), cqe(2, Poll.HUP, MORE))
                .expectAnyOrder(cancelled(2), cqe(3, 0))
                .build());
        all.add(Scenario.named("poll-cancel-all: FD|ALL cancels all eight polls on a pipe", "poll-cancel-all.c")
                .submit(pollAdd("p0.r", IN).ud(1), pollAdd("p0.r", IN).ud(2), pollAdd("p0.r", IN).ud(3),
                        pollAdd("p0.r", IN).ud(4), pollAdd("p0.r", IN).ud(5), pollAdd("p0.r", IN).ud(6),
                        pollAdd("p0.r", IN).ud(7), pollAdd("p0.r", IN).ud(8))
                .submit(cancelFd("p0.r", Cancel.ALL).ud(100))
                .expectAnyOrder(cancelled(1), cancelled(2), cancelled(3), cancelled(4), cancelled(5), cancelled(6),
                        cancelled(7), cancelled(8), cqe(100, 8))
                .build());
        all.add(Scenario.named("poll-cancel-all: ANY|ALL cancels ASYNC polls and reads", "poll-cancel-all.c")
                .submit(pollAdd("p0.r", IN).ud(0).async(), pollAdd("p1.r", IN).ud(1), read("p0.r", 8, -1).ud(2)
                        .async(), read("p1.r", 8, -1).ud(3))
                .quiet(100)
                .submit(cancel(0, Cancel.ANY | Cancel.ALL).ud(100))
                .expectAnyOrder(cancelled(0), cancelled(1), cancelled(2), cancelled(3), cqe(100, 4))
                .build());
    }

    private static void addProvidedBuffers(List<Scenario> all) {
        all.add(Scenario.named("buf: reads select provided buffers in the order they were provided", "buf-ring.c")
                .submit(provideBuffers(4, 16, 1, 0).ud(1))
                .reap(1)
                .write("p0.w", "hello")
                .submit(readSelect("p0.r", 1, 0).ud(2))
                .reap(1)
                .write("p0.w", "world!")
                .submit(readSelect("p0.r", 1, 0).ud(3))
                .expect(cqe(1, 0), cqe(2, 5, buffer(0)), cqe(3, 6, buffer(1)))
                .build());
        all.add(Scenario.named("buf: an empty group gives -ENOBUFS", "buf-ring.c")
                .submit(provideBuffers(1, 16, 2, 7).ud(1))
                .write("p0.w", "a")
                .submit(readSelect("p0.r", 2, 0).ud(2))
                .reap(2)
                .write("p0.w", "b")
                .submit(readSelect("p0.r", 2, 0).ud(3))
                .expect(cqe(1, 0), cqe(2, 1, buffer(7)), cqe(3, -Errno.ENOBUFS))
                .build());
        all.add(Scenario.named("buf: REMOVE_BUFFERS returns how many it removed", "buf-ring.c")
                .submit(provideBuffers(4, 16, 3, 0).ud(1))
                .submit(removeBuffers(3, 3).ud(2))
                .submit(removeBuffers(5, 3).ud(3))
                .submit(removeBuffers(1, 3).ud(4))
                .submit(removeBuffers(1, 99).ud(5))
                .expect(cqe(1, 0), cqe(2, 3), cqe(3, 1), cqe(4, 0), cqe(5, ENOENT))
                .build());
        all.add(Scenario.named("buf: a re-provided buffer goes to the back", "buf-ring.c")
                .submit(provideBuffers(2, 16, 4, 0).ud(1))
                .write("p0.w", "a")
                .submit(readSelect("p0.r", 4, 0).ud(2))
                .reap(2)
                .submit(provideBuffers(1, 16, 4, 0).ud(3))
                .write("p0.w", "b")
                .submit(readSelect("p0.r", 4, 0).ud(4))
                .reap(2)
                .write("p0.w", "c")
                .submit(readSelect("p0.r", 4, 0).ud(5))
                .expect(cqe(1, 0), cqe(2, 1, buffer(0)), cqe(3, 0), cqe(4, 1, buffer(1)), cqe(5, 1, buffer(0)))
                .build());
        all.add(Scenario.named("buf: a buffer-select read of a file is capped at the buffer size", "buf-ring.c")
                .file("0123456789")
                .submit(provideBuffers(1, 4, 5, 3).ud(1))
                .reap(1)
                .submit(readSelect("file", 5, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, 4, buffer(3)))
                .build());
        all.add(Scenario.named("buf: PROVIDE_BUFFERS checks count and bids", "buf-ring.c")
                .submit(provideBuffers(0, 16, 1, 0).ud(1))
                .submit(provideBuffers(2, 16, 1, 65535).ud(2))
                .submit(removeBuffers(0, 1).ud(3))
                .expect(cqe(1, -Errno.E2BIG), cqe(2, EINVAL), cqe(3, EINVAL))
                .build());
        all.add(Scenario.named("buf: -ENOBUFS fails its link", "buf-ring.c")
                .submit(readSelect("p0.r", 9, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, -Errno.ENOBUFS), cqe(2, ECANCELED))
                .build());
    }

    private static void addFiles(List<Scenario> all) {
        all.add(Scenario.named("file-register: a read through a fixed file", "file-register.c")
                .file("0123456789")
                .registerFiles("file")
                .submit(read("#0", 10, 0).ud(1).fixed())
                .expect(cqe(1, 10))
                .build());
        all.add(Scenario.named("file-register: a sparse slot is -EBADF", "file-register.c")
                .registerFiles("-1", "p0.r")
                .submit(read("#0", 8, 0).ud(1).fixed())
                .expect(cqe(1, EBADF))
                .build());
        all.add(Scenario.named("file-register: an index beyond the table is -EBADF", "file-register.c")
                .registerFiles("p0.r")
                .submit(read("#5", 8, 0).ud(1).fixed())
                .expect(cqe(1, EBADF))
                .build());
        all.add(Scenario.named("file-register: FIXED_FILE without a table is -EBADF", "file-register.c")
                .submit(read("#0", 8, 0).ud(1).fixed())
                .expect(cqe(1, EBADF))
                .build());
        all.add(Scenario.named("file-register: the table keeps a closed descriptor's file", "file-register.c")
                .registerFiles("p0.r")
                .close("p0.r")
                .submit(read("#0", 8, -1).ud(1).fixed())
                .quiet()
                .write("p0.w", "abc")
                .expect(cqe(1, 3))
                .build());
    }

    private static void addReadWrite(List<Scenario> all) {
        all.add(Scenario.named("rw: a linked write then read of a temp file", "read-write.c")
                .file("")
                .submit(write("file", "hello", 0).ud(1).link(), read("file", 5, 0).ud(2))
                .expect(cqe(1, 5), cqe(2, 5))
                .build());
        all.add(Scenario.named("rw: writev and readv", "read-write.c")
                .file("")
                .submit(writev("file", "abcdef", 0, 2, 4).ud(1).link(), readv("file", 0, 3, 3).ud(2))
                .expect(cqe(1, 6), cqe(2, 6))
                .build());
        all.add(Scenario.named("rw: a pipe write then read in a chain", "read-write.c")
                .submit(write("p0.w", "ping", -1).ud(1).link(), read("p0.r", 4, -1).ud(2))
                .expect(cqe(1, 4), cqe(2, 4))
                .build());
        all.add(Scenario.named("rw: a read at EOF returns 0 and breaks its chain", "read-write.c")
                .file("abc")
                .submit(read("file", 8, 3).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 0), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("rw: fsync of a written file", "fsync.c")
                .file("")
                .submit(write("file", "data", 0).ud(1).link(), fsync("file").ud(2))
                .expect(cqe(1, 4), cqe(2, 0))
                .build());
    }

    private static CqeSpec cancelled(long userData) {
        return cqe(userData, ECANCELED);
    }
}

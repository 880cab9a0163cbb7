package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.Scenarios.ENOENT;
import static io.jring.kernel.Scenarios.ETIME;
import static io.jring.kernel.Scenarios.MS;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.cancelFd;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.fsync;
import static io.jring.kernel.SqeSpec.linkTimeout;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.pollRemove;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.removeBuffers;
import static io.jring.kernel.SqeSpec.timeout;
import static io.jring.kernel.SqeSpec.timeoutRemove;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.Poll;
import io.jring.SqeFlags;
import java.util.List;

/**
 * Issue 16 B3/B8: where Linux 6.18 validates an SQE. A check in io_init_req or the op's
 * prep fails the SQE before it runs: without SUBMIT_ALL the submit stops after it (the
 * trailing NOP, user data 99, stays queued) and a chain it is in fails as one. A check at
 * issue is the CQE's result: the submit goes on, and links behave as for any failed
 * request. Flags an op has no use for (FIXED_FILE on a TIMEOUT, a NOP) are ignored. Each
 * expectation was taken from the kernel (tool/anchors/prep_issue.c prints the same cases).
 */
final class PrepIssueScenarios {
    private PrepIssueScenarios() {}

    private static final int EFAULT = -Errno.EFAULT;
    private static final int EOPNOTSUPP = -Errno.EOPNOTSUPP;
    private static final int ENAMETOOLONG = -Errno.ENAMETOOLONG;
    private static final int EBADFD = -Errno.EBADFD;
    private static final int E2BIG = -Errno.E2BIG;
    private static final int EAFNOSUPPORT = -Errno.EAFNOSUPPORT;
    private static final int AF_UNIX = 1;
    private static final int AF_INET = 2;
    private static final int NOP_FILE = 1 << 1;
    private static final int NOP_FIXED_FILE = 1 << 2;
    private static final int SOCK_STREAM = 1;
    private static final int SOCK_CLOEXEC = 02000000;
    private static final int POLL_ADD_LEVEL = 8;
    private static final int CANCEL_FD_FIXED = 1 << 3;
    private static final int MSG_RING_CQE_SKIP = 1;
    static final String FILE = "hello world\n";
    /** "/" then "./" 2038 times then a name of 18: 4,095 bytes, a path getname() accepts. */
    private static final String PATH_4095 = "/" + "./".repeat(2038) + "jring-no-such-file";

    /** Submitted after each case: still queued when the submit stopped at the case's prep. */
    static SqeSpec tail() {
        return nop().ud(99);
    }

    static void add(List<Scenario> all) {
        PrepIssueRwScenarios.add(all);
        addOpenAndSocket(all);
        addMsgRing(all);
        addTimeoutsAndBuffers(all);
        addOthers(all);
    }

    private static void addOpenAndSocket(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: OPENAT of an empty path fails at prep with -ENOENT", "openclose.c")
                .submitExpecting(1, custom("OPENAT(\"\")", (w, e) -> w.prepOpenat(Fds.AT_FDCWD, "", 0, 0)).ud(1),
                        tail())
                .expect(cqe(1, ENOENT))
                .build());
        all.add(Scenario.named("prep/issue: OPENAT of a path of PATH_MAX bytes fails at prep with -ENAMETOOLONG",
                        "openclose.c")
                .submitExpecting(1, custom("OPENAT(4,096 bytes)",
                        (w, e) -> w.prepOpenat(Fds.AT_FDCWD, PATH_4095 + "x", 0, 0)).ud(1), tail())
                .expect(cqe(1, ENAMETOOLONG))
                .build());
        all.add(Scenario.named("prep/issue: OPENAT of a path of 4,095 bytes is looked up when issued", "openclose.c")
                .submit(custom("OPENAT(4,095 bytes, no such file)",
                        (w, e) -> w.prepOpenat(Fds.AT_FDCWD, PATH_4095, 0, 0)).ud(1), tail())
                .expectAnyOrder(cqe(1, ENOENT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: OPENAT of a NULL path fails at prep with -EFAULT", "openclose.c")
                .submitExpecting(1, custom("OPENAT(NULL)", (w, e) -> w.prepOpenat(Fds.AT_FDCWD, null, 0, 0)).ud(1),
                        tail())
                .expect(cqe(1, EFAULT))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET with an unknown type flag fails at prep", "net.c")
                .submitExpecting(1, custom("SOCKET(AF_INET, SOCK_STREAM | 0x10000)",
                        (w, e) -> w.prepSocket(AF_INET, SOCK_STREAM | 0x10000, 0)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET with an unknown type fails when issued", "net.c")
                .submit(custom("SOCKET(AF_INET, 15)", (w, e) -> w.prepSocket(AF_INET, 15, 0)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET reads its type from the low 32 bits of off", "net.c")
                .submit(custom("SOCKET(AF_INET, 1 << 32 | 15)",
                        (w, e) -> w.prepSocket(AF_INET, 15, 0).off(1L << 32 | 15)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET of an unknown domain fails when issued", "net.c")
                .submit(custom("SOCKET(999, SOCK_STREAM)", (w, e) -> w.prepSocket(999, SOCK_STREAM, 0)).ud(1), tail())
                .expect(cqe(1, EAFNOSUPPORT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET into a fixed slot with SOCK_CLOEXEC fails at prep", "net.c")
                .submitExpecting(1, custom("SOCKET(AF_INET, SOCK_STREAM | SOCK_CLOEXEC) file index 1",
                        (w, e) -> w.prepSocket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0).fileIndex(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET into a fixed slot, then a NOP that looks the slot up when issued",
                        "net.c")
                .registerFiles("-1", "-1")
                .submit(custom("SOCKET(AF_UNIX, SOCK_STREAM) file index 2",
                                (w, e) -> w.prepSocket(AF_UNIX, SOCK_STREAM, 0).fileIndex(2)).ud(1).link(),
                        custom("NOP(FILE | FIXED_FILE, #1)", (w, e) -> w.prepNop().opFlags(NOP_FILE | NOP_FIXED_FILE).fd(1))
                                .ud(2), tail())
                .expect(cqe(1, 0), cqe(99, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("prep/issue: SOCKET with a buffer index fails at prep", "net.c")
                .submitExpecting(1, custom("SOCKET(AF_INET, SOCK_STREAM) buf_index 1",
                        (w, e) -> w.prepSocket(AF_INET, SOCK_STREAM, 0).bufIndex(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
    }

    private static SqeSpec msgSelf(String text, java.util.function.Consumer<SqeWriter> tweak) {
        return custom("MSG_RING(self, 5, 77)" + text, (w, e) -> tweak.accept(w.prepMsgRingSelf(5, 77, 0)));
    }

    private static SqeSpec msgTo(String fd) {
        return custom("MSG_RING(" + fd + ", 5, 77)", (w, e) -> w.prepMsgRingToDescriptor(e.fd(fd), 5, 77, 0));
    }

    private static void addMsgRing(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: MSG_RING to its own ring posts the message", "msg_ring.c")
                .submit(msgSelf("", w -> { }).ud(1), tail())
                .expectAnyOrder(cqe(1, 0), cqe(77, 5), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with an unknown flag fails at prep", "msg_ring.c")
                .submitExpecting(1, msgSelf(" flags 4", w -> w.opFlags(4)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING DATA with CQE_SKIP fails when issued", "msg_ring.c")
                .submit(msgSelf(" CQE_SKIP", w -> w.opFlags(MSG_RING_CQE_SKIP)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with an unknown command fails when issued", "msg_ring.c")
                .submit(msgSelf(" command 5", w -> w.msgRingCommand(5)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING DATA with a file index but no FLAGS_PASS fails when issued",
                        "msg_ring.c")
                .submit(msgSelf(" file index 5", w -> w.fileIndex(5)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING DATA with a source slot fails when issued", "msg_ring.c")
                .submit(msgSelf(" addr3 5", w -> w.addr3(5)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with a buffer index fails at prep", "msg_ring.c")
                .submitExpecting(1, msgSelf(" buf_index 1", w -> w.bufIndex(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING to a descriptor that is no ring is -EBADFD when issued",
                        "msg_ring.c")
                .submit(msgTo("p0.r").ud(1), tail())
                .expect(cqe(1, EBADFD), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING to no descriptor is -EBADF when issued", "msg_ring.c")
                .submit(custom("MSG_RING(-1, 5, 77)", (w, e) -> w.prepMsgRingToDescriptor(-1, 5, 77, 0)).ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with FIXED_FILE and no file table is -EBADF", "msg_ring.c")
                .submit(msgTo("#0").fixed().ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with FIXED_FILE past the table is -EBADF", "msg_ring.c")
                .registerFiles("p0.r")
                .submit(msgTo("#3").fixed().ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: MSG_RING with FIXED_FILE on a slot that holds no ring is -EBADFD",
                        "msg_ring.c")
                .registerFiles("p0.r")
                .submit(msgTo("#0").fixed().ud(1), tail())
                .expect(cqe(1, EBADFD), cqe(99, 0))
                .build());
    }

    private static void addTimeoutsAndBuffers(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: TIMEOUT ignores FIXED_FILE", "timeout.c")
                .submit(timeout(MS, 0, 0).fixed().ud(1), tail())
                .expect(cqe(99, 0), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("prep/issue: LINK_TIMEOUT ignores FIXED_FILE", "timeout.c")
                .submit(nop().ud(1).link(), linkTimeout(Scenarios.NEVER, 0).fixed().ud(2), tail())
                .expect(cqe(1, 0))
                .expectAnyOrder(cqe(2, ECANCELED), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: TIMEOUT_REMOVE refuses FIXED_FILE at prep", "timeout.c")
                .submitExpecting(1, timeoutRemove(9).fixed().ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: a TIMEOUT count is 32 bits (-1 is 2^32 - 1)", "timeout.c")
                .submit(timeout(MS, -1, 0).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("prep/issue: a TIMEOUT with a buffer group fails at prep", "timeout.c")
                .submitExpecting(1, custom("TIMEOUT(1ms) buf_group 1", (w, e) -> w.prepTimeout(MS, 0, 0).bufferGroup(1))
                        .ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: PROVIDE_BUFFERS and REMOVE_BUFFERS ignore FIXED_FILE", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).fixed().ud(1), removeBuffers(2, 1).fixed().ud(2), tail())
                .expect(cqe(1, 0), cqe(2, 2), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: PROVIDE_BUFFERS from buffer id 70,000 fails at prep with -E2BIG", "kbuf.c")
                .submitExpecting(1, provideBuffers(2, 64, 1, 70_000).ud(1), tail())
                .expect(cqe(1, E2BIG))
                .build());
        all.add(Scenario.named("prep/issue: PROVIDE_BUFFERS past buffer id 65,535 fails at prep with -EINVAL", "kbuf.c")
                .submitExpecting(1, provideBuffers(2, 64, 1, 65_535).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
    }

    private static void addOthers(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: POLL_ADD refuses IORING_POLL_ADD_LEVEL at prep", "poll.c")
                .submitExpecting(1, custom("POLL_ADD(s0.a, IN) len LEVEL",
                        (w, e) -> w.prepPollAdd(e.fd("s0.a"), Poll.IN).len(POLL_ADD_LEVEL)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: POLL_ADD with a buffer index fails at prep", "poll.c")
                .submitExpecting(1, custom("POLL_ADD(s0.a, IN) buf_index 1",
                        (w, e) -> w.prepPollAdd(e.fd("s0.a"), Poll.IN).bufIndex(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: POLL_REMOVE with new user data but no update fails at prep", "poll.c")
                .submitExpecting(1, custom("POLL_REMOVE(9) off 5", (w, e) -> w.prepPollRemove(9).off(5)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: POLL_REMOVE ignores FIXED_FILE", "poll.c")
                .submit(pollRemove(9).fixed().ud(1), tail())
                .expect(cqe(1, ENOENT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: ASYNC_CANCEL ignores len without CANCEL_OP", "cancel.c")
                .submit(custom("ASYNC_CANCEL(9) len 3", (w, e) -> w.prepCancel(9, 0).len(3)).ud(1), tail())
                .expect(cqe(1, ENOENT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: ASYNC_CANCEL by user data ignores FIXED_FILE", "cancel.c")
                .submit(cancel(9, 0).fixed().ud(1), tail())
                .expect(cqe(1, ENOENT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: ASYNC_CANCEL with CANCEL_FD_FIXED and no file table is -EBADF", "cancel.c")
                .submit(cancelFd("#0", CANCEL_FD_FIXED).ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: NOP ignores FIXED_FILE", "nop.c")
                .submit(nop().fixed().ud(1), tail())
                .expect(cqe(1, 0), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: BUFFER_SELECT on a NOP is refused before its ioprio", "io_uring.c")
                .submitExpecting(1, custom("NOP ioprio 1", (w, e) -> w.prepNop().ioprio(1))
                        .flags(SqeFlags.BUFFER_SELECT).ud(1), tail())
                .expect(cqe(1, EOPNOTSUPP))
                .build());
        all.add(Scenario.named("prep/issue: an unknown SQE flag is refused before BUFFER_SELECT", "io_uring.c")
                .submitExpecting(1, nop().flags(SqeFlags.BUFFER_SELECT | 0x80).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: FSYNC with a buffer index fails at prep", "sync.c")
                .file(FILE)
                .submitExpecting(1, custom("FSYNC(file) buf_index 1", (w, e) -> w.prepFsync(e.fd("file"), 0).bufIndex(1))
                        .ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: FSYNC with FIXED_FILE and no file table is -EBADF when issued", "sync.c")
                .submit(fsync("#0").fixed().ud(1), tail())
                .expect(cqe(99, 0), cqe(1, EBADF))
                .build());
    }
}

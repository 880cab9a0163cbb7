package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.cancelFd;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.pollAdd;
import static io.jring.kernel.SqeSpec.pollMultishot;
import static io.jring.kernel.SqeSpec.pollRemove;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.readSelect;
import static io.jring.kernel.SqeSpec.recv;
import static io.jring.kernel.SqeSpec.removeBuffers;
import static io.jring.kernel.SqeSpec.send;
import static io.jring.kernel.SqeSpec.timeout;
import static io.jring.kernel.SqeSpec.write;

import io.jring.Cancel;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.Opcode;
import io.jring.Poll;
import io.jring.Setup;
import io.jring.SqeFlags;
import java.util.List;

/**
 * What ASYNC_CANCEL finds and where CQEs posted through task work fall (Linux 6.18's
 * cancel.c io_try_cancel, poll.c io_poll_cancel_req, rw.c kiocb_done), and direct
 * descriptors made by ACCEPT, OPENAT and SOCKET (net.c io_accept, filetable.c
 * io_fixed_fd_install), checked on the kernel with tool/anchors/cancel_order.c too:
 * <ul>
 * <li>a cancel finds a poll whose readiness is queued as task work (it is still in the
 * cancel hash) and the poll then ends -ECANCELED without its readiness CQE;</li>
 * <li>a cancelled poll stays findable until its task work runs: a second cancel in the same
 * submit gets 0 (ALL counts it again), a POLL_REMOVE -EALREADY; one POLL_REMOVE took out
 * of the hash is gone (-ENOENT);</li>
 * <li>a completion queued as task work follows the CQEs its submit posts inline;</li>
 * <li>ACCEPT with a file index installs the connection (res 0, or the slot for
 * FILE_INDEX_ALLOC), in order with the submit's other CQEs, as do OPENAT and SOCKET.</li>
 * </ul>
 */
final class CancelOrderScenarios {
    private CancelOrderScenarios() {}

    private static final int ECANCELED = -Errno.ECANCELED;
    private static final int ENOENT = -Errno.ENOENT;
    private static final int EALREADY = -Errno.EALREADY;
    private static final int EAGAIN = -Errno.EAGAIN;
    private static final int EINVAL = -Errno.EINVAL;
    private static final int EBADF = -Errno.EBADF;
    private static final int IN = Poll.IN;
    private static final int MORE = CqeFlags.MORE;
    private static final int NONEMPTY = CqeFlags.SOCK_NONEMPTY;
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;
    private static final int RWF_NOWAIT = 0x8;
    /** IORING_ACCEPT_DONTWAIT, in ioprio. */
    private static final int ACCEPT_DONTWAIT = 2;
    private static final int ALLOC = io.jring.Sqe.FILE_INDEX_ALLOC;

    static void add(List<Scenario> all) {
        addQueuedReadiness(all);
        addSecondCancel(all);
        addTaskWorkOrder(all);
        addAcceptDirect(all);
        addInstallOrder(all);
        addBufferAtIssueFailure(all);
    }

    private static void addQueuedReadiness(List<Scenario> all) {
        all.add(Scenario.named("cancel: a multishot poll ready as it is armed and cancelled in its submit ends"
                        + " -ECANCELED without its readiness CQE", "poll.c io_poll_cancel_req")
                .write("s0.b", "x")
                .submit(pollMultishot("s0.a", IN).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a ready multishot poll a POLL_REMOVE could not take (-EALREADY) is still"
                        + " cancelled", "poll.c io_poll_cancel_req")
                .write("s0.b", "x")
                .submit(pollMultishot("s0.a", IN).ud(1), pollRemove(1).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, EALREADY), cqe(3, 0), cqe(1, ECANCELED))
                .build());
        // A plain ring's readiness runs when the write(2) returns on Linux; only a DEFER_TASKRUN
        // ring keeps it queued until the next wait, for the cancel to find.
        all.add(Scenario.named("cancel: a poll whose readiness waits in the local work list ends -ECANCELED",
                        "poll.c io_poll_cancel_req")
                .rings(DEFER)
                .submit(pollAdd("s0.a", IN).ud(1))
                .write("s0.b", "x")
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a RECV whose readiness waits in the local work list ends -ECANCELED"
                        + " and leaves the data", "poll.c io_poll_cancel_req")
                .rings(DEFER)
                .submit(recv("s0.a", 8).ud(1))
                .write("s0.b", "x")
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .submit(recv("s0.a", 8).opFlags(0x40).ud(3))
                .expect(cqe(2, 0), cqe(1, ECANCELED), cqe(3, 1))
                .build());
    }

    private static void addSecondCancel(List<Scenario> all) {
        all.add(Scenario.named("cancel: a cancelled one-shot poll is found again by a cancel in the same submit",
                        "poll.c io_poll_find")
                .submit(pollAdd("s0.a", IN).ud(1), cancel(1, 0).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a cancelled multishot poll is found again by a cancel in the same submit",
                        "poll.c io_poll_find")
                .submit(pollMultishot("s0.a", IN).ud(1), cancel(1, 0).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a cancelled RECV armed on poll is found again by a cancel in the same submit",
                        "poll.c io_poll_find")
                .submit(recv("s0.a", 8).ud(1), cancel(1, 0).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: ALL and ANY count cancelled polls again in the same submit",
                        "cancel.c io_cancel_match_sequence")
                .submit(pollAdd("s0.a", IN).ud(1), pollAdd("s0.a", IN).ud(1), cancel(1, Cancel.ALL).ud(2),
                        cancel(1, Cancel.ALL).ud(3), cancel(0, Cancel.ANY).ud(4), cancel(1, 0).ud(5))
                .expect(cqe(2, 2), cqe(3, 2), cqe(4, 2), cqe(5, 0), cqe(1, ECANCELED), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a cancelled poll is found again by fd; ALL by fd counts it once",
                        "cancel.c io_cancel_match_sequence")
                .submit(pollAdd("s0.a", IN).ud(1), cancelFd("s0.a", 0).ud(2), cancelFd("s0.a", 0).ud(3),
                        cancelFd("s0.a", Cancel.ALL).ud(4))
                .expect(cqe(2, 0), cqe(3, 0), cqe(4, 1), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: POLL_REMOVE of a poll a cancel claimed in the same submit is -EALREADY",
                        "poll.c io_poll_disarm")
                .submit(pollAdd("s0.a", IN).ud(1), cancel(1, 0).ud(2), pollRemove(1).ud(3))
                .expect(cqe(2, 0), cqe(3, EALREADY), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a poll POLL_REMOVE removed is gone for a cancel in the same submit",
                        "poll.c io_poll_disarm")
                .submit(pollAdd("s0.a", IN).ud(1), pollRemove(1).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, ENOENT), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("cancel: a cancelled TIMEOUT is gone for a second cancel", "timeout.c io_timeout_cancel")
                .submit(timeout(Scenarios.NEVER, 0, 0).ud(1), cancel(1, 0).ud(2), cancel(1, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, ENOENT), cqe(1, ECANCELED))
                .build());
    }

    private static void addTaskWorkOrder(List<Scenario> all) {
        all.add(Scenario.named("cancel: a NOWAIT write's -EAGAIN from a full pipe follows the cancel and NOP of its"
                        + " submit", "rw.c kiocb_done")
                .write("p0.w", "x".repeat(65536))
                .submit(write("p0.w", "x", -1).opFlags(RWF_NOWAIT).ud(1), cancel(77, 0).ud(2), nop().ud(3))
                .expect(cqe(2, ENOENT), cqe(3, 0), cqe(1, EAGAIN))
                .build());
    }

    /** ACCEPT on {@code listener} with file index {@code fileIndex} (ioprio: IORING_ACCEPT_* flags). */
    private static SqeSpec acceptDirect(String listener, int fileIndex, int ioprio, int flags) {
        String idx = fileIndex == ALLOC ? "ALLOC" : Integer.toString(fileIndex);
        return custom("ACCEPT(" + listener + ", flags 0x" + Integer.toHexString(flags) + ", ioprio " + ioprio
                        + ") file index " + idx,
                (w, e) -> w.prepRead(e.fd(listener), null, 0).opcode(Opcode.ACCEPT).ioprio(ioprio).opFlags(flags)
                        .fileIndex(fileIndex));
    }

    private static void addAcceptDirect(List<Scenario> all) {
        all.add(Scenario.named("accept: into fixed slot 1 (file index 2): res 0 and the slot holds the connection",
                        "net.c io_accept")
                .registerFiles("-1", "-1")
                .submit(acceptDirect("t1.l", 2, 0, 0).ud(1), nop().ud(2))
                .reap(2)
                .submit(send("#1", "hi").fixed().ud(3))
                .reap(1)
                .submit(recv("t1.c", 8).ud(4))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 2), cqe(4, 2))
                .build());
        all.add(Scenario.named("accept: FILE_INDEX_ALLOC answers with the slot it filled", "net.c io_accept")
                .registerFiles("s0.a", "-1")
                .submit(acceptDirect("t1.l", ALLOC, 0, 0).ud(1), nop().ud(2))
                .reap(2)
                .submit(send("#1", "hi").fixed().ud(3))
                .expect(cqe(1, 1), cqe(2, 0), cqe(3, 2))
                .build());
        all.add(Scenario.named("accept: FILE_INDEX_ALLOC into a full table is -ENFILE and uses the connection up",
                        "filetable.c io_file_bitmap_get")
                .registerFiles("s0.a")
                .submit(acceptDirect("t1.l", ALLOC, 0, 0).ud(1), nop().ud(2))
                .reap(2)
                .submit(acceptDirect("t1.l", 0, ACCEPT_DONTWAIT, 0).ud(3))
                .expect(cqe(1, -Errno.ENFILE), cqe(2, 0), cqe(3, EAGAIN))
                .build());
        all.add(Scenario.named("accept: a file index without a table is -ENXIO (ALLOC: -ENFILE);"
                        + " out of the table -EINVAL", "filetable.c io_install_fixed_file")
                .submit(acceptDirect("t2.l", 2, 0, 0).ud(1), acceptDirect("t2.l", ALLOC, 0, 0).ud(2), nop().ud(3))
                .reap(3)
                .registerFiles("-1")
                .submit(acceptDirect("t1.l", 3, 0, 0).ud(4), nop().ud(5))
                .expect(cqe(1, -Errno.ENXIO, NONEMPTY), cqe(2, -Errno.ENFILE), cqe(3, 0), cqe(4, EINVAL), cqe(5, 0))
                .build());
        all.add(Scenario.named("accept: multishot with FILE_INDEX_ALLOC fills free slots until the table is full",
                        "net.c io_accept")
                .registerFiles("-1", "-1")
                .submit(acceptDirect("t3.l", ALLOC, io.jring.Sqe.ACCEPT_MULTISHOT, 0).ud(1), nop().ud(2))
                .expect(cqe(1, 0, MORE | NONEMPTY), cqe(1, 1, MORE | NONEMPTY), cqe(1, -Errno.ENFILE), cqe(2, 0))
                .build());
        all.add(Scenario.named("accept: multishot into one given slot, or SOCK_CLOEXEC with a file index,"
                        + " fails at prep",
                        "net.c io_accept_prep")
                .registerFiles("-1")
                .submitExpecting(1, acceptDirect("t1.l", 1, io.jring.Sqe.ACCEPT_MULTISHOT, 0).ud(1),
                        acceptDirect("t1.l", 1, 0, Fds.SOCK_CLOEXEC).ud(2), nop().ud(3))
                .reap(1)
                .submitExpecting(1)
                .reap(1)
                .submitExpecting(1)
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, 0))
                .build());
    }

    private static void addInstallOrder(List<Scenario> all) {
        all.add(Scenario.named("direct: OPENAT and SOCKET into slots post in order with the NOPs between them",
                        "filetable.c io_fixed_fd_install")
                .registerFiles("-1", "-1")
                .submit(custom("OPENAT(/dev/null) file index 1",
                                (w, e) -> w.prepOpenat(Fds.AT_FDCWD, "/dev/null", 0, 0).fileIndex(1)).ud(1),
                        nop().ud(2),
                        custom("SOCKET(AF_UNIX, SOCK_STREAM) file index 2",
                                (w, e) -> w.prepSocket(1, Fds.SOCK_STREAM, 0).fileIndex(2)).ud(3),
                        nop().ud(4),
                        custom("SOCKET(AF_UNIX, SOCK_STREAM) file index ALLOC",
                                (w, e) -> w.prepSocket(1, Fds.SOCK_STREAM, 0).fileIndex(ALLOC)).ud(5),
                        nop().ud(6))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, -Errno.ENFILE), cqe(6, 0))
                .build());
    }

    private static void addBufferAtIssueFailure(List<Scenario> all) {
        all.add(Scenario.named("buffers: a READ failing when issued (rw flags, offset, file mode) keeps the buffer"
                        + " it took; a bad descriptor takes none", "rw.c __io_read")
                .file("hello world\n")
                .submit(provideBuffers(4, 64, 1, 0).ud(9))
                .submit(readSelect("file", 1, 0).opFlags(0x10000).ud(1),
                        custom("READ(file, select group 1, off -100)",
                                (w, e) -> w.prepRead(e.fd("file"), null, -100).bufferGroup(1).len(0))
                                .flags(SqeFlags.BUFFER_SELECT).ud(2),
                        readSelect("bad", 1, 0).ud(3), readSelect("p0.w", 1, 0).ud(4), readSelect("file", 1, 0).ud(5))
                .reap(6)
                .submit(removeBuffers(10, 1).ud(6))
                .expect(cqe(9, 0), cqe(1, -Errno.EOPNOTSUPP, buffer(0)), cqe(2, EINVAL, buffer(1)), cqe(3, EBADF),
                        cqe(4, EBADF, buffer(2)), cqe(5, 12, buffer(3)), cqe(6, 0))
                .build());
        all.add(Scenario.named("buffers: an ASYNC READ failing in io-wq keeps the buffer it took", "rw.c __io_read")
                .file("hello world\n")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(readSelect("file", 1, 0).opFlags(0x10000).async().ud(1))
                .reap(2)
                .submit(readSelect("p0.w", 1, 0).async().ud(2))
                .reap(1)
                .submit(removeBuffers(10, 1).ud(3))
                .expect(cqe(9, 0), cqe(1, -Errno.EOPNOTSUPP, buffer(0)), cqe(2, EBADF, buffer(1)), cqe(3, 0))
                .build());
    }
}

package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.cancelFd;
import static io.jring.kernel.SqeSpec.close;
import static io.jring.kernel.SqeSpec.closeFixed;
import static io.jring.kernel.SqeSpec.fsync;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.onFd;
import static io.jring.kernel.SqeSpec.pollAdd;
import static io.jring.kernel.SqeSpec.pollAddFlags;
import static io.jring.kernel.SqeSpec.pollMultishot;
import static io.jring.kernel.SqeSpec.pollRemove;
import static io.jring.kernel.SqeSpec.read;
import static io.jring.kernel.SqeSpec.readv;
import static io.jring.kernel.SqeSpec.recv;
import static io.jring.kernel.SqeSpec.send;
import static io.jring.kernel.SqeSpec.write;

import io.jring.Cancel;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Poll;
import java.util.List;

/**
 * Poll semantics and descriptor numbers (issue 16 B1, B4-B6), each checked on Linux 6.18: a
 * descriptor or fixed-file index out of any range is a -errno CQE for every op that takes
 * one; POLL_ADD looks at readiness when it arms (a ready one-shot completes in the submit, a
 * ready multishot posts its first CQE as task work, so a POLL_REMOVE in the same submit finds
 * nothing or gets -EALREADY); a file that cannot be polled is ready for what its default
 * mask says and -EINVAL for anything else; arming a poll never re-reports readiness to the
 * polls already armed on the same descriptor.
 */
final class PollScenarios {
    private PollScenarios() {}

    private static final int EBADF = -Errno.EBADF;
    private static final int EINVAL = -Errno.EINVAL;
    private static final int ENOENT = -Errno.ENOENT;
    private static final int ENXIO = -Errno.ENXIO;
    private static final int EALREADY = -Errno.EALREADY;
    private static final int ECANCELED = -Errno.ECANCELED;
    private static final int IN = Poll.IN;
    private static final int OUT = Poll.OUT;
    private static final int MORE = CqeFlags.MORE;
    /** IORING_POLL_ADD_LEVEL: Linux 6.18 refuses it at prep. */
    private static final int POLL_ADD_LEVEL = 8;
    private static final int POLLRDNORM = 0x40;
    private static final int POLLWRNORM = 0x100;

    /** Descriptor numbers no process has: huge, the int extremes, negative. */
    private static final List<String> BAD_NUMBERS = List.of("#1073741824", "#2147483647", "#-2147483648", "#-1", "#-5");

    static void add(List<Scenario> all) {
        addBadNumbers(all);
        addCancelFixed(all);
        addArmTime(all);
        addUnpollable(all);
        addRefire(all);
    }

    private static void addBadNumbers(List<Scenario> all) {
        for (String fd : BAD_NUMBERS) {
            all.add(Scenario.named("fd " + fd + ": every op on it is -EBADF, and the ring goes on", "poll.c")
                    .submit(pollAdd(fd, IN).ud(1), pollMultishot(fd, IN).ud(2), read(fd, 8, 0).ud(3),
                            recv(fd, 8).ud(4), onFd(Opcode.ACCEPT, fd).ud(5), cancelFd(fd, 0).ud(6),
                            close(fd).ud(7), write(fd, "x", 0).ud(8), send(fd, "x").ud(9),
                            readv(fd, 0, 8).ud(10), cancelFd(fd, Cancel.ALL).ud(11), fsync(fd).ud(12),
                            onFd(Opcode.SHUTDOWN, fd).ud(13))
                    .submit(nop().ud(14), pollAdd(fd, IN).ud(15))
                    .expectAnyOrder(cqe(1, EBADF), cqe(2, EBADF), cqe(3, EBADF), cqe(4, EBADF), cqe(5, EBADF),
                            cqe(6, EBADF), cqe(7, EBADF), cqe(8, EBADF), cqe(9, EBADF), cqe(10, EBADF),
                            cqe(11, EBADF), cqe(12, EBADF), cqe(13, EBADF), cqe(14, 0), cqe(15, EBADF))
                    .build());
            String slot = fd.equals("#-5") ? "#1" : fd;   // with the table below, #1 is an empty slot
            int fileIndex = Integer.parseInt(fd.substring(1));
            all.add(Scenario.named("fixed file " + fd + " without a table: -EBADF; CLOSE of that file index: -ENXIO",
                            "fixed-link.c")
                    .submit(read(fd, 8, 0).fixed().ud(1), pollAdd(fd, IN).fixed().ud(2),
                            pollMultishot(fd, IN).fixed().ud(3), recv(fd, 8).fixed().ud(4),
                            onFd(Opcode.ACCEPT, fd).fixed().ud(5), closeFixed(fileIndex).ud(6),
                            cancelFd(fd, 0).fixed().ud(7), cancelFd(fd, Cancel.FD_FIXED).ud(8))
                    .expectAnyOrder(cqe(1, EBADF), cqe(2, EBADF), cqe(3, EBADF), cqe(4, EBADF), cqe(5, EBADF),
                            cqe(6, ENXIO), cqe(7, EBADF), cqe(8, EBADF))
                    .build());
            all.add(Scenario.named("fixed file " + slot + " beyond a table of 2: -EBADF; CLOSE of file index "
                            + fileIndex + ": -EINVAL", "fixed-link.c")
                    .registerFiles("s0.a", "-1")
                    .submit(read(slot, 8, 0).fixed().ud(1), pollAdd(slot, IN).fixed().ud(2),
                            pollMultishot(slot, IN).fixed().ud(3), recv(slot, 8).fixed().ud(4),
                            onFd(Opcode.ACCEPT, slot).fixed().ud(5), closeFixed(fileIndex).ud(6),
                            closeFixed(2).ud(7), cancelFd(slot, 0).fixed().ud(8),
                            cancelFd(slot, Cancel.FD_FIXED).ud(9))
                    .expectAnyOrder(cqe(1, EBADF), cqe(2, EBADF), cqe(3, EBADF), cqe(4, EBADF), cqe(5, EBADF),
                            cqe(6, EINVAL), cqe(7, EBADF), cqe(8, EBADF), cqe(9, EBADF))
                    .build());
        }
    }

    private static void addCancelFixed(List<Scenario> all) {
        all.add(Scenario.named("cancel: CANCEL_FD_FIXED cancels what waits on a fixed-file slot", "poll-cancel-all.c")
                .registerFiles("s0.a")
                .submit(recv("#0", 8).fixed().ud(1))
                .quiet()
                .submit(cancelFd("#0", Cancel.FD_FIXED).ud(2))
                .reap(2)
                .submit(cancelFd("#0", Cancel.FD_FIXED).ud(3))
                .expect(cqe(2, 0), cqe(1, ECANCELED), cqe(3, ENOENT))
                .build());
    }

    private static void addArmTime(List<Scenario> all) {
        all.add(Scenario.named("poll: a one-shot POLL_ADD on a ready socket completes as it is armed;"
                        + " a POLL_REMOVE after it in the same submit finds nothing", "poll.c")
                .write("s0.b", "x")
                .submit(pollAdd("s0.a", IN | OUT).ud(1), pollRemove(1).ud(2))
                .expect(cqe(1, IN | OUT), cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("poll: a multishot POLL_ADD on a ready socket posts its first CQE after the submit;"
                        + " POLL_REMOVEs in the same submit are -EALREADY and it stays armed", "poll-mshot-update.c")
                .write("s0.b", "x")
                .submit(pollMultishot("s0.a", IN | OUT).ud(1), pollRemove(1).ud(2), pollRemove(1).ud(3))
                .reap(3)
                .quiet()
                .submit(pollRemove(1).ud(4))
                .expect(cqe(2, EALREADY), cqe(3, EALREADY), cqe(1, IN | OUT, MORE), cqe(4, 0), cqe(1, ECANCELED))
                .build());
        all.add(Scenario.named("poll: ASYNC_CANCEL after a ready one-shot poll in the same submit finds nothing",
                        "poll-cancel.c")
                .write("s0.b", "x")
                .submit(pollAdd("s0.a", IN).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(1, IN), cqe(2, ENOENT))
                .build());
        all.add(Scenario.named("poll: POLL_REMOVE in the same submit removes polls that are not ready", "poll-cancel.c")
                .submit(pollMultishot("s0.a", IN).ud(1), pollRemove(1).ud(2), pollAdd("s0.a", IN).ud(3),
                        pollRemove(3).ud(4))
                .expect(cqe(2, 0), cqe(4, 0))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("poll: a ready one-shot poll linked to its POLL_REMOVE completes first", "poll-cancel.c")
                .write("s0.b", "x")
                .submit(pollAdd("s0.a", IN).ud(1).link(), pollRemove(1).ud(2))
                .expect(cqe(1, IN), cqe(2, ENOENT))
                .build());
    }

    private static void addUnpollable(List<Scenario> all) {
        all.add(Scenario.named("poll: a regular file is ready for IN, OUT, RDNORM and WRNORM; -EINVAL for any other mask",
                        "poll.c")
                .file("data")
                .submit(pollAdd("file", Poll.ERR).ud(1), pollAdd("file", Poll.HUP).ud(2), pollAdd("file", Poll.PRI).ud(3),
                        pollAdd("file", Poll.RDHUP).ud(4), pollAdd("file", 0).ud(5), pollAdd("file", Poll.NVAL).ud(6),
                        pollAdd("file", IN).ud(7), pollAdd("file", OUT).ud(8), pollAdd("file", IN | Poll.ERR).ud(9),
                        pollAdd("file", POLLRDNORM).ud(10), pollAdd("file", POLLWRNORM).ud(11),
                        pollAdd("file", IN | OUT | Poll.PRI).ud(12))
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, EINVAL), cqe(4, EINVAL), cqe(5, EINVAL), cqe(6, EINVAL),
                        cqe(7, IN), cqe(8, OUT), cqe(9, IN), cqe(10, POLLRDNORM), cqe(11, POLLWRNORM), cqe(12, IN | OUT))
                .build());
        all.add(Scenario.named("poll: a multishot poll on a regular file posts one final CQE, or -EINVAL", "poll.c")
                .file("data")
                .submit(pollMultishot("file", IN).ud(1), pollMultishot("file", Poll.ERR).ud(2),
                        pollMultishot("file", OUT | Poll.HUP).ud(3))
                .expect(cqe(1, IN), cqe(2, EINVAL), cqe(3, OUT))
                .build());
        all.add(Scenario.named("poll: IORING_POLL_ADD_LEVEL and unknown POLL_ADD flags fail at prep and end the submit",
                        "poll.c")
                .write("s0.b", "x")
                .submitExpecting(1, pollAddFlags("s0.a", IN, POLL_ADD_LEVEL).ud(1),
                        pollAddFlags("s0.a", IN, 0x10).ud(2), nop().ud(3))
                .reap(1)
                .submitExpecting(1)
                .reap(1)
                .submitExpecting(1)
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, 0))
                .build());
    }

    private static void addRefire(List<Scenario> all) {
        all.add(Scenario.named("poll: polls armed after a multishot on the same socket do not re-fire it", "poll-many.c")
                .submit(pollMultishot("s0.a", IN | OUT).ud(1))
                .reap(1)
                .submit(pollAdd("s0.a", OUT).ud(2))
                .reap(1)
                .submit(pollMultishot("s0.a", OUT).ud(3))
                .reap(1)
                .submit(pollAdd("s0.a", IN).ud(4))
                .quiet()
                .submit(pollRemove(1).ud(5), pollRemove(3).ud(6), cancel(4, 0).ud(7))
                .expect(cqe(1, OUT, MORE), cqe(2, OUT), cqe(3, OUT, MORE))
                .expectAnyOrder(cqe(5, 0), cqe(6, 0), cqe(7, 0), cqe(1, ECANCELED), cqe(3, ECANCELED),
                        cqe(4, ECANCELED))
                .build());
        all.add(Scenario.named("poll: a RECV or POLL_ADD waiting for input does not re-fire a multishot OUT poll",
                        "poll-many.c")
                .submit(pollMultishot("s0.a", OUT).ud(1))
                .reap(1)
                .submit(recv("s0.a", 8).ud(2))
                .quiet()
                .submit(pollAdd("s0.a", IN).ud(3))
                .quiet()
                .submit(pollRemove(1).ud(4), cancel(2, 0).ud(5), cancel(3, 0).ud(6))
                .expect(cqe(1, OUT, MORE))
                .expectAnyOrder(cqe(4, 0), cqe(5, 0), cqe(6, 0), cqe(1, ECANCELED), cqe(2, ECANCELED),
                        cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("poll: a second multishot on a readable socket posts only its own first CQE;"
                        + " new data fires each once", "poll-many.c")
                .write("s0.b", "q")
                .submit(pollMultishot("s0.a", IN).ud(1))
                .reap(1)
                .submit(pollMultishot("s0.a", IN).ud(2))
                .reap(1)
                .submit(pollAdd("s0.a", IN).ud(3))
                .reap(1)
                .quiet()
                .write("s0.b", "q")
                .reap(2)
                .submit(pollRemove(1).ud(4), pollRemove(2).ud(5))
                .expect(cqe(1, IN, MORE), cqe(2, IN, MORE), cqe(3, IN))
                .expectAnyOrder(cqe(1, IN, MORE), cqe(2, IN, MORE))
                .expectAnyOrder(cqe(4, 0), cqe(5, 0), cqe(1, ECANCELED), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("poll: a one-shot OUT poll armed beside a waiting RECV completes alone;"
                        + " data completes the RECV", "poll-many.c")
                .submit(recv("s0.a", 8).ud(1))
                .quiet()
                .submit(pollAdd("s0.a", OUT).ud(2))
                .reap(1)
                .quiet()
                .write("s0.b", "ab")
                .expect(cqe(2, OUT), cqe(1, 2))
                .build());
        all.add(Scenario.named("poll: a waiting one-shot and a multishot on one socket each fire once on data",
                        "poll-many.c")
                .submit(pollAdd("s0.a", IN).ud(1), pollMultishot("s0.a", IN).ud(2))
                .quiet()
                .write("s0.b", "x")
                .reap(2)
                .quiet()
                .submit(pollRemove(2).ud(3))
                .expectAnyOrder(cqe(1, IN), cqe(2, IN, MORE))
                .expect(cqe(3, 0), cqe(2, ECANCELED))
                .build());
    }
}

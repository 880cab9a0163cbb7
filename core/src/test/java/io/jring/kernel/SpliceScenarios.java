package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.PrepIssueScenarios.tail;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.read;
import static io.jring.kernel.SqeSpec.recv;

import io.jring.Errno;
import io.jring.Splice;
import java.util.List;

/**
 * Issue 23: SPLICE and TEE (liburing's splice.c and tee tests) between pipes, a file and a
 * socket pair: offsets (-1 = the file's position), short splices and EOF, the flags
 * (SPLICE_F_NONBLOCK, SPLICE_F_FD_IN_FIXED, unknown bits), FIXED_FILE outputs, what Linux
 * refuses (no pipe, the same pipe, an offset on a pipe, TEE of a non-pipe), and that both
 * ops run in io-wq: their CQE follows the submit's inline ones, and a blocking splice waits
 * for data written later. Expectations taken from Linux 6.18.
 */
final class SpliceScenarios {
    private SpliceScenarios() {}

    private static final int EAGAIN = -Errno.EAGAIN;
    private static final int ESPIPE = -Errno.ESPIPE;
    /** The kernel-internal "restart the syscall" errno an interrupted io-wq splice completes with. */
    private static final int ERESTARTSYS = 512;
    private static final int NONBLOCK = Splice.F_NONBLOCK;
    private static final int FD_IN_FIXED = Splice.F_FD_IN_FIXED;
    private static final String FILE = "0123456789";

    static void add(List<Scenario> all) {
        addPipes(all);
        addFilesAndSockets(all);
        addErrors(all);
        addFixed(all);
        addTee(all);
    }

    private static SqeSpec splice(String in, long offIn, String out, long offOut, int len, int flags) {
        return custom("SPLICE(" + in + ", " + offIn + ", " + out + ", " + offOut + ", " + len + ", 0x"
                + Integer.toHexString(flags) + ")",
                (w, e) -> w.prepSplice(e.fd(in), offIn, e.fd(out), offOut, len, flags));
    }

    private static SqeSpec tee(String in, String out, int len, int flags) {
        return custom("TEE(" + in + ", " + out + ", " + len + ", 0x" + Integer.toHexString(flags) + ")",
                (w, e) -> w.prepTee(e.fd(in), e.fd(out), len, flags));
    }

    private static void addPipes(List<Scenario> all) {
        all.add(Scenario.named("splice: pipe to pipe moves the data, and runs in io-wq after the NOP", "splice.c")
                .write("p0.w", "hello")
                .submit(splice("p0.r", -1, "p1.w", -1, 5, 0).ud(1), tail())
                .reap(2)
                .submit(read("p1.r", 16, -1).ud(2))
                .expect(cqe(99, 0), cqe(1, 5), cqe(2, 5))
                .build());
        all.add(Scenario.named("splice: a short splice is the result and breaks its link", "splice.c")
                .write("p0.w", "hi")
                .submit(splice("p0.r", -1, "p1.w", -1, 8, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 2), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("splice: a full splice keeps its link", "splice.c")
                .write("p0.w", "hello")
                .submit(splice("p0.r", -1, "p1.w", -1, 5, 0).ud(1).link(), read("p1.r", 5, -1).ud(2))
                .expect(cqe(1, 5), cqe(2, 5))
                .build());
        all.add(Scenario.named("splice: a pipe whose writer closed gives 0 (EOF)", "splice.c")
                .write("p0.w", "x")
                .close("p0.w")
                .submit(splice("p0.r", -1, "p1.w", -1, 8, 0).ud(1))
                .reap(1)
                .submit(splice("p0.r", -1, "p1.w", -1, 8, 0).ud(2))
                .expect(cqe(1, 1), cqe(2, 0))
                .build());
        all.add(Scenario.named("splice: SPLICE_F_NONBLOCK on an empty pipe is -EAGAIN", "splice.c")
                .submit(splice("p0.r", -1, "p1.w", -1, 8, NONBLOCK).ud(1))
                .expect(cqe(1, EAGAIN))
                .build());
        all.add(Scenario.named("splice: without SPLICE_F_NONBLOCK it waits for data written later", "splice.c")
                .submit(splice("p0.r", -1, "p1.w", -1, 5, 0).ud(1))
                .quiet(50)
                .write("p0.w", "later")
                .expect(cqe(1, 5))
                .build());
        all.add(Scenario.named("splice: a length of 0 gives 0 without looking at the files' kinds", "splice.c")
                .file(FILE)
                .submit(splice("file", 0, "file", 0, 0, 0).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, 0))
                .build());
    }

    private static void addFilesAndSockets(List<Scenario> all) {
        all.add(Scenario.named("splice: file to pipe from an offset", "splice.c")
                .file(FILE)
                .submit(splice("file", 3, "p0.w", -1, 4, 0).ud(1).link(), read("p0.r", 16, -1).ud(2))
                .expect(cqe(1, 4), cqe(2, 4))
                .build());
        all.add(Scenario.named("splice: file to pipe from the file position, which moves", "splice.c")
                .file(FILE)
                .submit(splice("file", -1, "p0.w", -1, 4, 0).ud(1).link(), splice("file", -1, "p0.w", -1, 8, 0).ud(2)
                        .link(), read("p0.r", 16, -1).ud(3))
                .expect(cqe(1, 4), cqe(2, 6), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("splice: file to pipe at EOF gives 0 and breaks its link", "splice.c")
                .file(FILE)
                .submit(splice("file", 10, "p0.w", -1, 4, 0).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 0), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("splice: pipe to file at an offset", "splice.c")
                .file(FILE)
                .write("p0.w", "abcd")
                .submit(splice("p0.r", -1, "file", 8, 4, 0).ud(1).link(), read("file", 32, 0).ud(2))
                .expect(cqe(1, 4), cqe(2, 12))
                .build());
        all.add(Scenario.named("splice: pipe to socket", "splice.c")
                .write("p0.w", "xyz")
                .submit(splice("p0.r", -1, "s0.a", -1, 3, 0).ud(1).link(), recv("s0.b", 16).ud(2))
                .expect(cqe(1, 3), cqe(2, 3))
                .build());
        all.add(Scenario.named("splice: socket to pipe", "splice.c")
                .write("s0.a", "data")
                .submit(splice("s0.b", -1, "p0.w", -1, 4, 0).ud(1).link(), read("p0.r", 16, -1).ud(2))
                .expect(cqe(1, 4), cqe(2, 4))
                .build());
    }

    private static void addErrors(List<Scenario> all) {
        all.add(Scenario.named("splice: neither end a pipe is -EINVAL when issued", "splice.c")
                .file(FILE)
                .submit(splice("file", 0, "s0.a", -1, 4, 0).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("splice: a pipe into itself is -EINVAL", "splice.c")
                .write("p0.w", "loop")
                .submit(splice("p0.r", -1, "p0.w", -1, 4, 0).ud(1))
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("splice: an offset on a pipe is -ESPIPE", "splice.c")
                .write("p0.w", "abcd")
                .submit(splice("p0.r", 0, "p1.w", -1, 4, 0).ud(1), splice("p0.r", -1, "p1.w", 2, 4, 0).ud(2))
                .expectAnyOrder(cqe(1, ESPIPE), cqe(2, ESPIPE))
                .build());
        all.add(Scenario.named("splice: an unknown flag fails at prep", "splice.c")
                .submitExpecting(1, splice("p0.r", -1, "p1.w", -1, 4, 0x10).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("splice: an ioprio fails at prep", "io_uring.c")
                .submitExpecting(1, custom("SPLICE(p0.r, -1, p1.w, -1, 4) ioprio 1",
                        (w, e) -> w.prepSplice(e.fd("p0.r"), -1, e.fd("p1.w"), -1, 4, 0).ioprio(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("splice: no input or no output descriptor is -EBADF when issued", "splice.c")
                .submit(splice("bad", -1, "p1.w", -1, 4, 0).ud(1), splice("p0.r", -1, "bad", -1, 4, 0).ud(2), tail())
                .expect(cqe(99, 0))
                .expectAnyOrder(cqe(1, EBADF), cqe(2, EBADF))
                .build());
        all.add(Scenario.named("splice: into the read end of a pipe is -EBADF", "splice.c")
                .write("p0.w", "abcd")
                .submit(splice("p0.r", -1, "p1.r", -1, 4, 0).ud(1))
                .expect(cqe(1, EBADF))
                .build());
        all.add(Scenario.named("splice: a cancel ends a waiting splice with -ERESTARTSYS (512, as Linux 6.18 leaks it)",
                        "cancel.c")
                .submit(splice("p0.r", -1, "p1.w", -1, 5, 0).ud(1))
                .quiet(50)
                .submit(cancel(1, 0).ud(2))
                .expectAnyOrder(cqe(1, -ERESTARTSYS), cqe(2, -Errno.EALREADY))
                .build());
    }

    private static void addFixed(List<Scenario> all) {
        all.add(Scenario.named("splice: SPLICE_F_FD_IN_FIXED takes the input from a fixed slot", "splice.c")
                .write("p0.w", "fixed")
                .registerFiles("p0.r")
                .submit(splice("#0", -1, "p1.w", -1, 5, FD_IN_FIXED).ud(1).link(), read("p1.r", 16, -1).ud(2))
                .expect(cqe(1, 5), cqe(2, 5))
                .build());
        all.add(Scenario.named("splice: SPLICE_F_FD_IN_FIXED on an empty slot, past the table or without one is -EBADF",
                        "splice.c")
                .registerFiles("-1")
                .submit(splice("#0", -1, "p1.w", -1, 5, FD_IN_FIXED).ud(1), splice("#4", -1, "p1.w", -1, 5, FD_IN_FIXED)
                        .ud(2), splice("#-1", -1, "p1.w", -1, 5, FD_IN_FIXED).ud(3))
                .expectAnyOrder(cqe(1, EBADF), cqe(2, EBADF), cqe(3, EBADF))
                .build());
        all.add(Scenario.named("splice: a blocking TCP socket spliced into a pipe waits for data, then a cancel ends it",
                        "splice.c")
                .registerFiles("-1")
                .submit(custom("ACCEPT(t1.l) file index 1", (w, e) -> w.prepAccept(e.fd("t1.l"), 0).fileIndex(1)).ud(1))
                .reap(1)
                .submit(splice("#0", -1, "p0.w", -1, 64, FD_IN_FIXED).ud(2))
                .quiet(50)
                .write("t1.c", "tcp")
                .reap(1)
                .submit(splice("#0", -1, "p0.w", -1, 64, FD_IN_FIXED).ud(3))
                .quiet(50)
                .submit(cancel(3, 0).ud(4))
                .expect(cqe(1, 0), cqe(2, 3))
                .expectAnyOrder(cqe(3, -ERESTARTSYS), cqe(4, -Errno.EALREADY))
                .build());
        all.add(Scenario.named("splice: FIXED_FILE names the output's slot", "splice.c")
                .write("p0.w", "out")
                .registerFiles("p1.w")
                .submit(splice("p0.r", -1, "#0", -1, 3, 0).fixed().ud(1).link(), read("p1.r", 16, -1).ud(2))
                .expect(cqe(1, 3), cqe(2, 3))
                .build());
        all.add(Scenario.named("splice: both ends fixed", "splice.c")
                .write("p0.w", "both")
                .registerFiles("p0.r", "p1.w")
                .submit(splice("#0", -1, "#1", -1, 4, FD_IN_FIXED).fixed().ud(1))
                .expect(cqe(1, 4))
                .build());
        all.add(Scenario.named("splice: FIXED_FILE on an empty slot is -EBADF", "splice.c")
                .registerFiles("-1")
                .submit(splice("p0.r", -1, "#0", -1, 3, 0).fixed().ud(1), tail())
                .expect(cqe(99, 0), cqe(1, EBADF))
                .build());
    }

    private static void addTee(List<Scenario> all) {
        all.add(Scenario.named("tee: duplicates pipe data without consuming it", "tee.c")
                .write("p0.w", "hello")
                .submit(tee("p0.r", "p1.w", 5, 0).ud(1).link(), read("p1.r", 5, -1).ud(2).link(),
                        read("p0.r", 16, -1).ud(3))
                .expect(cqe(1, 5), cqe(2, 5), cqe(3, 5))
                .build());
        all.add(Scenario.named("tee: a file input is -EINVAL when issued", "tee.c")
                .file(FILE)
                .submit(tee("file", "p1.w", 4, 0).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("tee: a pipe into itself is -EINVAL", "tee.c")
                .write("p0.w", "loop")
                .submit(tee("p0.r", "p0.w", 4, 0).ud(1))
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("tee: an offset fails at prep", "tee.c")
                .submitExpecting(1, custom("TEE(p0.r, p1.w, 4) off 1",
                        (w, e) -> w.prepTee(e.fd("p0.r"), e.fd("p1.w"), 4, 0).off(1)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("tee: SPLICE_F_NONBLOCK on an empty pipe is -EAGAIN", "tee.c")
                .submit(tee("p0.r", "p1.w", 4, NONBLOCK).ud(1))
                .expect(cqe(1, EAGAIN))
                .build());
        all.add(Scenario.named("tee: SPLICE_F_FD_IN_FIXED takes the input from a fixed slot", "tee.c")
                .write("p0.w", "teed")
                .registerFiles("p0.r")
                .submit(tee("#0", "p1.w", 4, FD_IN_FIXED).ud(1))
                .expect(cqe(1, 4))
                .build());
    }
}

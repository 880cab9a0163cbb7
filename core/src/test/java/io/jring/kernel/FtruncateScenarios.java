package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.PrepIssueScenarios.tail;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.read;

import java.util.List;

/**
 * Issue 22: FTRUNCATE (io_uring/truncate.c, Linux 6.9; expectations from 6.18): the length
 * in {@code off}, shrinking and growing (a later READ sees the new size), forced into io-wq
 * (its CQE follows the submit's inline NOP), links, the argument fields that must be 0, a
 * negative length, a bad fd and files ftruncate refuses (a pipe, a socket).
 */
final class FtruncateScenarios {
    private FtruncateScenarios() {}

    private static final String FILE = "0123456789";

    private static SqeSpec ftruncate(String fd, long length) {
        return custom("FTRUNCATE(" + fd + ", " + length + ")", (w, e) -> w.prepFtruncate(e.fd(fd), length));
    }

    static void add(List<Scenario> all) {
        all.add(Scenario.named("ftruncate: shrinks the file; it runs in io-wq after the NOP", "truncate.c")
                .file(FILE)
                .submit(ftruncate("file", 4).ud(1), tail())
                .reap(2)
                .submit(read("file", 16, 0).ud(2))
                .expect(cqe(99, 0), cqe(1, 0), cqe(2, 4))
                .build());
        all.add(Scenario.named("ftruncate: grows the file with zeros, linked to the READ that sees it", "truncate.c")
                .file(FILE)
                .submit(ftruncate("file", 12).ud(1).link(), read("file", 16, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, 12))
                .build());
        all.add(Scenario.named("ftruncate: a negative length is -EINVAL, which does not break its link", "truncate.c do_ftruncate")
                .file(FILE)
                .submit(ftruncate("file", -1).ud(1).link(), read("file", 16, 0).ud(2))
                .expect(cqe(1, EINVAL), cqe(2, 10))
                .build());
        all.add(Scenario.named("ftruncate: its -EINVAL is no failure, so CQE_SKIP_SUCCESS hides it", "truncate.c io_ftruncate")
                .file(FILE)
                .submit(ftruncate("file", -1).ud(1).skip(), read("file", 16, 0).ud(2))
                .expect(cqe(2, 10))
                .build());
        all.add(Scenario.named("ftruncate: a bad fd fails the request: its link breaks", "io_uring.c io_assign_file")
                .file(FILE)
                .submit(ftruncate("bad", 0).ud(1).link(), read("file", 16, 0).ud(2))
                .expect(cqe(1, EBADF), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("ftruncate: a bad fd is -EBADF", "truncate.c")
                .submit(ftruncate("bad", 0).ud(1))
                .expect(cqe(1, EBADF))
                .build());
        all.add(Scenario.named("ftruncate: a pipe or a socket is not a regular file: -EINVAL", "open.c do_ftruncate")
                .submit(ftruncate("p0.w", 0).ud(1), ftruncate("s0.a", 0).ud(2))
                .expectAnyOrder(cqe(1, EINVAL), cqe(2, EINVAL)) // two io-wq items: either may finish first
                .build());
        all.add(Scenario.named("ftruncate: len, addr3 or rw_flags set is -EINVAL at prep", "truncate.c io_ftruncate_prep")
                .file(FILE)
                .submit(custom("FTRUNCATE(file, 0) len=1", (w, e) -> w.prepFtruncate(e.fd("file"), 0).len(1)).ud(1))
                .reap(1)
                .submit(custom("FTRUNCATE(file, 0) addr3=1", (w, e) -> w.prepFtruncate(e.fd("file"), 0).addr3(1)).ud(2))
                .reap(1)
                .submit(custom("FTRUNCATE(file, 0) opFlags=1", (w, e) -> w.prepFtruncate(e.fd("file"), 0).opFlags(1)).ud(3))
                .reap(1)
                .submit(read("file", 16, 0).ud(4))
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, EINVAL), cqe(4, 10))
                .build());
    }
}

package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.fsync;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.read;
import static io.jring.kernel.SqeSpec.readSelect;
import static io.jring.kernel.SqeSpec.write;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.SqeFlags;
import java.util.List;

/**
 * {@link PrepIssueScenarios} for reads, writes, sends and receives: offsets, rw flags and NULL
 * buffers are checked when issued; the file is looked up before a provided buffer is chosen
 * (issue 16 B8), and a failed lookup takes none.
 */
final class PrepIssueRwScenarios {
    private PrepIssueRwScenarios() {}

    private static final int EFAULT = -Errno.EFAULT;
    private static final int EOPNOTSUPP = -Errno.EOPNOTSUPP;
    private static final int ENOTSOCK = -Errno.ENOTSOCK;
    private static final int UNKNOWN_RWF = 0x10000;
    private static final String FILE = PrepIssueScenarios.FILE;

    private static SqeSpec tail() {
        return PrepIssueScenarios.tail();
    }

    static void add(List<Scenario> all) {
        addReadWrite(all);
        addBufferSelect(all);
    }

    private static void addReadWrite(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: a READ at offset -100 fails when issued, the FSYNC after it is submitted",
                        "rw.c")
                .file(FILE)
                .submit(read("file", 10, -100).ud(1), fsync("file").ud(2))
                .expect(cqe(1, EINVAL), cqe(2, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READ at offset -100 fails when issued and cancels its link", "rw.c")
                .file(FILE)
                .submit(read("file", 10, -100).ud(1).link(), nop().ud(2), tail())
                .expect(cqe(1, EINVAL))
                .expectAnyOrder(cqe(2, ECANCELED), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READ at offset -100 fails when issued, its hardlink runs", "rw.c")
                .file(FILE)
                .submit(read("file", 10, -100).ud(1).hardlink(), nop().ud(2), tail())
                .expect(cqe(1, EINVAL))
                .expectAnyOrder(cqe(2, 0), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a pipe READ at offset -2 fails when issued", "rw.c")
                .submit(read("p0.r", 10, -2).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a WRITE at offset -100 fails when issued", "rw.c")
                .file(FILE)
                .submit(write("file", "abc", -100).ud(1), tail())
                .expectAnyOrder(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READ into a NULL buffer fails with -EFAULT when issued", "rw.c")
                .file(FILE)
                .submit(custom("READ(file, NULL, 10, 0)", (w, e) -> w.prepRead(e.fd("file"), null, 0).len(10)).ud(1),
                        tail())
                .expect(cqe(1, EFAULT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READ of 0 bytes into a NULL buffer reads 0", "rw.c")
                .file(FILE)
                .submit(custom("READ(file, NULL, 0, 0)", (w, e) -> w.prepRead(e.fd("file"), null, 0)).ud(1), tail())
                .expect(cqe(1, 0), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a WRITE from a NULL buffer fails with -EFAULT when issued", "rw.c")
                .file(FILE)
                .submit(custom("WRITE(file, NULL, 10, 0)", (w, e) -> w.prepWrite(e.fd("file"), null, 0).len(10))
                        .ud(1), tail())
                .expectAnyOrder(cqe(1, EFAULT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READV with no vector array fails at prep", "rw.c")
                .file(FILE)
                .submitExpecting(1, custom("READV(file, NULL x 1, 0)",
                        (w, e) -> w.prepReadv(e.fd("file"), null, 0).len(1)).ud(1), tail())
                .expect(cqe(1, EFAULT))
                .build());
        all.add(Scenario.named("prep/issue: a READV of 1,025 vectors fails at prep with -EINVAL", "rw.c")
                .file(FILE)
                .submitExpecting(1, custom("READV(file, NULL x 1025, 0)",
                        (w, e) -> w.prepReadv(e.fd("file"), null, 0).len(1025)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: unknown rw_flags fail when issued with -EOPNOTSUPP", "rw.c")
                .file(FILE)
                .submit(custom("READ(file, 10, 0) rw_flags 0x10000",
                        (w, e) -> w.prepRead(e.fd("file"), e.buffer(10), 0).opFlags(UNKNOWN_RWF)).ud(1), tail())
                .expect(cqe(1, EOPNOTSUPP), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: unknown rw_flags are refused before a bad offset", "rw.c")
                .file(FILE)
                .submit(custom("READ(file, 10, -100) rw_flags 0x10000",
                        (w, e) -> w.prepRead(e.fd("file"), e.buffer(10), -100).opFlags(UNKNOWN_RWF)).ud(1), tail())
                .expect(cqe(1, EOPNOTSUPP), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a bad descriptor is refused before unknown rw_flags", "rw.c")
                .submit(custom("READ(bad, 10, 0) rw_flags 0x10000",
                        (w, e) -> w.prepRead(e.fd("bad"), e.buffer(10), 0).opFlags(UNKNOWN_RWF)).ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: READ_FIXED at offset -100 with no registered buffer is -EFAULT when issued",
                        "rw.c")
                .file(FILE)
                .submit(custom("READ_FIXED(file, 10, -100) buf 0", (w, e) -> w.prepRead(e.fd("file"), e.buffer(10), -100)
                        .opcode(Opcode.READ_FIXED)).ud(1), tail())
                .expect(cqe(1, EFAULT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a RECV into a NULL buffer fails with -EFAULT when issued", "net.c")
                .write("s0.b", "ping")
                .submit(custom("RECV(s0.a, NULL, 10)", (w, e) -> w.prepRecv(e.fd("s0.a"), null, 0).len(10)).ud(1),
                        tail())
                .expect(cqe(1, EFAULT), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a SEND from a NULL buffer fails with -EFAULT when issued", "net.c")
                .submit(custom("SEND(s0.a, NULL, 10)", (w, e) -> w.prepSend(e.fd("s0.a"), null, 0).len(10)).ud(1),
                        tail())
                .expect(cqe(1, EFAULT), cqe(99, 0))
                .build());
    }

    /** B8: the file is looked up before a buffer is selected, and a failed lookup takes none. */
    private static void addBufferSelect(List<Scenario> all) {
        all.add(Scenario.named("prep/issue: READ with FIXED_FILE and BUFFER_SELECT and no file table is -EBADF",
                        "kbuf.c")
                .submit(readSelect("#0", 1, 0).fixed().ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: an ASYNC READ with FIXED_FILE and BUFFER_SELECT and no file table is -EBADF",
                        "kbuf.c")
                .submit(readSelect("#0", 1, 0).fixed().async().ud(1), tail())
                .expectAnyOrder(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: RECV with FIXED_FILE and BUFFER_SELECT and no file table is -EBADF", "net.c")
                .submit(recvSelect("#0").fixed().ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named(
                        "prep/issue: an ASYNC RECV with FIXED_FILE and BUFFER_SELECT and no file table is -EBADF",
                        "net.c")
                .submit(recvSelect("#0").fixed().async().ud(1), tail())
                .expectAnyOrder(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: READ with BUFFER_SELECT on a bad descriptor is -EBADF, not -ENOBUFS",
                        "kbuf.c")
                .submit(readSelect("bad", 1, 0).ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: RECV with BUFFER_SELECT on a pipe is -ENOTSOCK, not -ENOBUFS", "net.c")
                .submit(recvSelect("p0.r").ud(1), tail())
                .expect(cqe(1, ENOTSOCK), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: a READ on a bad descriptor takes no provided buffer", "kbuf.c")
                .file(FILE)
                .submit(provideBuffers(1, 64, 1, 7), readSelect("bad", 1, 0).ud(1), readSelect("file", 1, 0).ud(2),
                        tail())
                .expect(cqe(0, 0), cqe(1, EBADF))
                .expectAnyOrder(cqe(2, 12, buffer(7)), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: READV with BUFFER_SELECT takes one buffer, capped by its vector's length",
                        "rw.c")
                .file(FILE)
                .submit(provideBuffers(1, 8, 1, 7), readvSelect(5).ud(1), readvSelect(5).ud(2), tail())
                .expect(cqe(0, 0), cqe(1, 5, buffer(7)), cqe(2, -Errno.ENOBUFS), cqe(99, 0))
                .build());
        all.add(Scenario.named("prep/issue: READV with BUFFER_SELECT and two vectors fails at prep", "rw.c")
                .file(FILE)
                .submitExpecting(1, readvSelect(5, 5).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("prep/issue: READ and RECV with BUFFER_SELECT ignore their address", "kbuf.c")
                .file(FILE)
                .write("s0.b", "ping")
                .submit(provideBuffers(2, 64, 1, 7),
                        custom("READ(file, buf, 10, 0) group 1", (w, e) -> w.prepRead(e.fd("file"), e.buffer(16), 0)
                                .len(10).bufferGroup(1)).flags(SqeFlags.BUFFER_SELECT).ud(1),
                        custom("RECV(s0.a, buf, 10) group 1", (w, e) -> w.prepRecv(e.fd("s0.a"), e.buffer(16), 0)
                                .len(10).bufferGroup(1)).flags(SqeFlags.BUFFER_SELECT).ud(2), tail())
                .expect(cqe(0, 0))
                .expectAnyOrder(cqe(1, 10, buffer(7)), cqe(2, 4, buffer(8)), cqe(99, 0))
                .build());
    }

    private static SqeSpec readvSelect(int... lens) {
        return custom("READV(file, " + java.util.Arrays.toString(lens) + ") group 1",
                (w, e) -> w.prepReadv(e.fd("file"), e.buffers(lens), 0).bufferGroup(1)).flags(SqeFlags.BUFFER_SELECT);
    }

    private static SqeSpec recvSelect(String fd) {
        return custom("RECV(" + fd + ", group 1)", (w, e) -> w.prepRecv(e.fd(fd), null, 0).bufferGroup(1))
                .flags(SqeFlags.BUFFER_SELECT);
    }
}

package io.jring.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.ops.OpDef;
import io.jring.ops.OpTable;
import io.jring.sys.PollCalls;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ThrownOp}: an op whose own code throws (a test op registered in the op table for the
 * test) fails its request with one -errno CQE wherever it throws: prep, the inline issue, an
 * io-wq worker, the retry after poll readiness, other task work. The ring goes on (a NOP
 * after it completes) and close() returns promptly, on plain and DEFER_TASKRUN rings.
 */
class ThrownOpTest {
    /** An opcode jring does not implement (IORING_OP_SYNC_FILE_RANGE), borrowed for the test op. */
    private static final int TEST_OPCODE = 8;
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** Where the test op throws. */
    enum Where { PREP, INLINE, WORKER, POLL_RETRY, MULTISHOT_POLL_RETRY, TASK_WORK }

    /** Throws {@code what} at {@code where}; everything else as a plain op on the SQE's fd. */
    private static final class ThrowingOp extends OpDef {
        final Where where;
        final Supplier<Throwable> what;

        ThrowingOp(Where where, Supplier<Throwable> what) {
            this.where = where;
            this.what = what;
        }

        private RuntimeException raise() {
            Throwable t = what.get();
            if (t instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) t;
        }

        @Override
        public int prep(Request req, Sqe sqe) {
            if (where == Where.PREP) {
                throw raise();
            }
            return 0;
        }

        @Override
        public boolean forceAsync(Request req) {
            return where == Where.WORKER;
        }

        @Override
        public int pollMask(Request req) {
            return where == Where.POLL_RETRY || where == Where.MULTISHOT_POLL_RETRY ? PollCalls.EPOLLIN : 0;
        }

        @Override
        public boolean pollMultishot(Request req) {
            return where == Where.MULTISHOT_POLL_RETRY;
        }

        @Override
        public int issue(Request req, boolean nonBlocking) {
            switch (where) {
                case INLINE, WORKER -> throw raise();
                case POLL_RETRY, MULTISHOT_POLL_RETRY -> {
                    return -Errno.EAGAIN;   // armed on the socket: pollReady (the retry) throws
                }
                case TASK_WORK -> {
                    req.taskFunc = (r, cancel) -> {
                        throw raise();
                    };
                    req.ring.issuer.queueTaskWork(req, false);
                    return ISSUE_QUEUED;
                }
                default -> {
                    return 0;
                }
            }
        }

        @Override
        public int pollReady(Request req, int revents) {
            if (where == Where.MULTISHOT_POLL_RETRY) {
                req.postMore(revents, 0);   // one CQE with MORE, then the throw ends it
            }
            throw raise();
        }
    }

    private OpDef[] table;

    @BeforeEach
    void findTable() throws ReflectiveOperationException {
        Field f = OpTable.class.getDeclaredField("DEFS");
        f.setAccessible(true);
        table = (OpDef[]) f.get(null);
        assertNull(table[TEST_OPCODE], "the borrowed opcode must be one jring does not implement");
    }

    @AfterEach
    void restoreTable() {
        table[TEST_OPCODE] = null;
    }

    private static Cqe next(IoUring ring) {
        Cqe c = ring.waitCqe(Duration.ofSeconds(5));
        assertNotNull(c, "no CQE within 5 s");
        return c;
    }

    /** The CQEs that arrive within a short quiet window. */
    private static List<String> rest(IoUring ring) {
        List<String> more = new ArrayList<>();
        for (Cqe c; (c = ring.waitCqe(Duration.ofMillis(50))) != null; ring.cqeSeen(c)) {
            more.add(c.userData() + ":" + c.res());
        }
        return more;
    }

    /**
     * Runs the op that throws at {@code where} on a fresh ring: one CQE with {@code errno}
     * (after a MORE one for the multishot case), no other, then a NOP works and close()
     * returns within the bound.
     */
    private void runThrowingOp(int setup, Where where, Supplier<Throwable> what, int errno) {
        table[TEST_OPCODE] = new ThrowingOp(where, what);
        int[] sp = Fds.socketPair();
        try {
            assertTimeoutPreemptively(BOUND, () -> {
                IoUring ring = IoUring.builder().entries(8).flags(setup).build();
                try {
                    ring.getSqe().prepNop().opcode(TEST_OPCODE).fd(sp[0]).userData(1);
                    ring.submit();
                    if (where == Where.POLL_RETRY || where == Where.MULTISHOT_POLL_RETRY) {
                        assertNull(ring.waitCqe(Duration.ofMillis(20)), "armed, not ready");
                        Fds.write(sp[1], new byte[] {1});
                    }
                    if (where == Where.MULTISHOT_POLL_RETRY) {
                        Cqe more = next(ring);
                        assertEquals(1, more.userData());
                        assertEquals(io.jring.CqeFlags.MORE, more.flags());
                        ring.cqeSeen(more);
                    }
                    Cqe c = next(ring);
                    assertEquals(1, c.userData(), where + ": the failed request's CQE");
                    assertEquals(errno, c.res(), where + ": " + Errno.name(c.res()));
                    assertEquals(0, c.flags() & io.jring.CqeFlags.MORE);
                    ring.cqeSeen(c);
                    assertEquals(List.of(), rest(ring), "one CQE, no other");
                    ring.getSqe().prepNop().userData(2);
                    ring.submit();
                    c = next(ring);
                    assertEquals(2, c.userData(), "the ring goes on");
                    ring.cqeSeen(c);
                } finally {
                    ring.close();
                }
            }, () -> where + ": a CQE or close() never came");
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Where.class)
    void aRuntimeExceptionFromAnOpFailsItsRequestOnceWithEfault(Where where) {
        for (int setup : new int[] {0, DEFER}) {
            runThrowingOp(setup, where, () -> new IllegalStateException("test op: bug"), -Errno.EFAULT);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Where.class)
    void anOutOfMemoryErrorFromAnOpFailsItsRequestOnceWithEnomem(Where where) {
        for (int setup : new int[] {0, DEFER}) {
            runThrowingOp(setup, where, () -> new OutOfMemoryError("test op: no memory"), -Errno.ENOMEM);
        }
    }

    @Test
    void aPrepThatThrowsEndsTheSubmitLikeAnyPrepFailure() {
        table[TEST_OPCODE] = new ThrowingOp(Where.PREP, () -> new IllegalStateException("test op: bug"));
        assertTimeoutPreemptively(BOUND, () -> {
            try (IoUring ring = IoUring.open(8)) {
                ring.getSqe().prepNop().userData(1);
                ring.getSqe().prepNop().opcode(TEST_OPCODE).userData(2);
                ring.getSqe().prepNop().userData(3);
                assertEquals(2, ring.submit(), "stops after the SQE that failed at prep, as Linux");
                assertEquals(1, ring.sqReady());
                assertEquals(1, ring.submit());
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Cqe c = next(ring);
                    got.add(c.userData() + ":" + c.res());
                    ring.cqeSeen(c);
                }
                assertEquals(List.of("1:0", "2:" + -Errno.EFAULT, "3:0"), got);
            }
        });
    }

    @Test
    void aPrepThatThrowsUnderSubmitAllLetsTheRestGoOn() {
        table[TEST_OPCODE] = new ThrowingOp(Where.PREP, () -> new IllegalStateException("test op: bug"));
        assertTimeoutPreemptively(BOUND, () -> {
            try (IoUring ring = IoUring.builder().entries(8).flags(Setup.SUBMIT_ALL).build()) {
                ring.getSqe().prepNop().opcode(TEST_OPCODE).userData(1);
                ring.getSqe().prepNop().userData(2);
                ring.getSqe().prepNop().opcode(TEST_OPCODE).userData(3);
                ring.getSqe().prepNop().userData(4);
                assertEquals(4, ring.submit());
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Cqe c = next(ring);
                    got.add(c.userData() + ":" + c.res());
                    ring.cqeSeen(c);
                }
                assertEquals(List.of("1:" + -Errno.EFAULT, "2:0", "3:" + -Errno.EFAULT, "4:0"), got);
            }
        });
    }

    @Test
    void aChainMemberWhosePrepThrowsFailsTheChain() {
        table[TEST_OPCODE] = new ThrowingOp(Where.PREP, () -> new IllegalStateException("test op: bug"));
        assertTimeoutPreemptively(BOUND, () -> {
            try (IoUring ring = IoUring.open(8)) {
                ring.getSqe().prepNop().flags(SqeFlags.IO_LINK).userData(1);
                ring.getSqe().prepNop().opcode(TEST_OPCODE).flags(SqeFlags.IO_LINK).userData(2);
                ring.getSqe().prepNop().userData(3);
                ring.getSqe().prepNop().userData(4);
                assertEquals(4, ring.submit(), "as any member failing at prep: the chain ends, submit goes on");
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Cqe c = next(ring);
                    got.add(c.userData() + ":" + c.res());
                    ring.cqeSeen(c);
                }
                assertEquals(List.of("1:" + -Errno.ECANCELED, "4:0", "2:" + -Errno.EFAULT, "3:" + -Errno.ECANCELED),
                        got, "as Scenarios' link case with an invalid opcode");
            }
        });
    }

    @Test
    void aLinkedOpThatThrowsFailsItsChain() {
        table[TEST_OPCODE] = new ThrowingOp(Where.INLINE, () -> new IllegalStateException("test op: bug"));
        assertTimeoutPreemptively(BOUND, () -> {
            try (IoUring ring = IoUring.open(8)) {
                ring.getSqe().prepNop().opcode(TEST_OPCODE).flags(SqeFlags.IO_LINK).userData(1);
                ring.getSqe().prepNop().userData(2);
                ring.submit();
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    Cqe c = next(ring);
                    got.add(c.userData() + ":" + c.res());
                    ring.cqeSeen(c);
                }
                assertEquals(List.of("1:" + -Errno.EFAULT, "2:" + -Errno.ECANCELED), got);
            }
        });
    }

    @Test
    void theReqFailedEventNamesTheException(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("thrown.jfr");
        try (Recording r = new Recording()) {
            r.enable("jring.ReqFailed");
            r.start();
            for (Where where : new Where[] {Where.PREP, Where.INLINE, Where.WORKER, Where.TASK_WORK}) {
                runThrowingOp(0, where, () -> new IllegalStateException("test op: " + where), -Errno.EFAULT);
            }
            r.stop();
            r.dump(out);
        }
        List<String> reasons = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            if (e.getEventType().getName().equals("jring.ReqFailed") && e.getLong("userData") == 1) {
                assertEquals("EFAULT", e.getString("errno"));
                reasons.add(e.getString("reason"));
            }
        }
        for (Where where : new Where[] {Where.PREP, Where.INLINE, Where.WORKER, Where.TASK_WORK}) {
            String want = "java.lang.IllegalStateException: test op: " + where;
            assertEquals(1, reasons.stream().filter(want::equals).count(), want + " once in " + reasons);
        }
        assertTrue(reasons.size() == 4, "one event per failed request: " + reasons);
    }
}

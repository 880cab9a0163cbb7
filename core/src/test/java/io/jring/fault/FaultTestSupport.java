package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Helpers of the fault-seam tests (not a test class): files of a known byte pattern, the
 * CQEs of a batch checked for exactly-once delivery, and plans aimed at one descriptor.
 * Each test installs its plan in try-with-resources, so no fault outlives it.
 */
class FaultTestSupport extends RingTestSupport {
    /** How long "nothing more arrives" is watched after the expected CQEs (an absence check only). */
    static final Duration QUIET = Duration.ofMillis(50);

    /** Byte {@code i} of every pattern file. */
    static byte pattern(long i) {
        return (byte) (i * 31 + 7);
    }

    /** A file of {@code size} pattern bytes under {@code dir}, opened with {@code openFlags}. */
    static int patternFile(Descriptors fds, Path dir, int size, int openFlags) throws IOException {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = pattern(i);
        }
        Path p = Files.createTempFile(dir, "fault", ".dat");
        Files.write(p, b);
        return fds.add(Fds.open(p, openFlags, 0));
    }

    static int patternFile(Descriptors fds, Path dir, int size) throws IOException {
        return patternFile(fds, dir, size, OpenFlags.RDWR);
    }

    /** Asserts {@code buf[0, n)} holds the pattern from file offset {@code off}. */
    static void assertPattern(MemorySegment buf, long off, int n) {
        for (int i = 0; i < n; i++) {
            byte got = buf.get(ValueLayout.JAVA_BYTE, i);
            if (got != pattern(off + i)) {
                assertEquals(pattern(off + i), got, "byte " + i + " of " + n);
            }
        }
    }

    /** Fills {@code buf} with the pattern (as data to write). */
    static void fillPattern(MemorySegment buf) {
        for (long i = 0; i < buf.byteSize(); i++) {
            buf.set(ValueLayout.JAVA_BYTE, i, pattern(i));
        }
    }

    /**
     * Submits what is prepared, reaps {@code n} CQEs (bounded), and checks that each user
     * data came once and that no further CQE follows within {@link #QUIET}.
     */
    static Map<Long, Completion> submitAndReapOnce(IoUring ring, int n) {
        ring.submit();
        return reapOnce(ring, n);
    }

    static Map<Long, Completion> reapOnce(IoUring ring, int n) {
        List<Completion> got = next(ring, n);
        Map<Long, Completion> byUd = byUserData(got);
        assertQuietFor(ring, QUIET);
        return byUd;
    }

    /** A plan giving {@code kind} to the next {@code count} eligible calls on {@code fd}. */
    static Faults.Session inject(FaultKind kind, long count, int... fds) {
        return Faults.install(FaultPlan.seeded(16).next(kind, count).onlyFds(fds).build());
    }

    /** As {@link #inject} with no limit: every eligible call on {@code fds} gets it. */
    static Faults.Session injectAlways(FaultKind kind, int... fds) {
        return Faults.install(FaultPlan.seeded(16).rate(kind, 1.0).onlyFds(fds).build());
    }

    /**
     * Runs a whole test body (ring included) on a thread of its own, failing after 20 s: a
     * lost completion makes close() wait for it, and the failure must still be bounded.
     */
    static void bounded(org.junit.jupiter.api.function.Executable body) {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), body);
    }

    static Completion one(Cqe c) {
        return new Completion(c.userData(), c.res(), c.flags());
    }
}

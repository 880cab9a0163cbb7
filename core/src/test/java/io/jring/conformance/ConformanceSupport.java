package io.jring.conformance;


import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Shared helpers of the conformance suite (not a test class): {@link RingTestSupport} plus
 * the suite's constants and a file helper. Black box: only the public {@code io.jring} API.
 *
 * <p>Every expectation in this package was checked against Linux 6.18's own io_uring (the
 * same test classes run unchanged on the kernel's ring), see {@code io.jring.kernel}.
 * Timing: a wait for something that must happen is bounded by {@link #WAIT} (far above what
 * a passing run needs); something that must not happen early is given {@link #NEVER}, and
 * such requests are always removed, cancelled or dropped with the ring.
 */
class ConformanceSupport extends RingTestSupport {
    private ConformanceSupport() {}

    /** How long "nothing more happens" is watched for (absence checks only, never synchronisation). */
    static final Duration QUIET = Duration.ofMillis(30);
    static final long MS = 1_000_000L;
    /** A timer that must never expire during a test. */
    static final long NEVER = 10_000 * MS;
    /** A descriptor number no process has: -EBADF when the request is issued. */
    static final int BAD_FD = 0x3fff_ffff;
    /** An opcode Linux does not have (IORING_OP_LAST is far below). */
    static final int BAD_OPCODE = 250;

    /** No CQE arrives within {@link #QUIET}: for "this must not complete" checks only. */
    static void assertQuiet(IoUring ring) {
        assertQuietFor(ring, QUIET);
    }

    /** Descriptors a test opened, closed at the end; plus files with given content. */
    static final class OpenFds extends Descriptors {
        /** A new file in {@code dir} holding {@code content}, opened read-write. */
        int file(Path dir, String content) {
            try {
                Path f = Files.createTempFile(dir, "conformance", ".dat");
                Files.writeString(f, content, StandardCharsets.US_ASCII);
                return add(Fds.open(f, OpenFlags.RDWR, 0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

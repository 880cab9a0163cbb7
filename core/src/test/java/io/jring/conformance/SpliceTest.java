package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.byUserData;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.readFully;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Splice;
import io.jring.SqeFlags;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_SPLICE and IORING_OP_TEE (liburing test/splice.c, Linux 6.18's io_uring/splice.c):
 * a file copied through a pipe in linked splice pairs, with offsets and with fixed files on
 * both sides; tee; and the waiting Linux's io-wq splice does: for a writer, for a socket's
 * data, until a cancel (-ERESTARTSYS, as 6.18 posts it) or the ring's close ends it.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SpliceTest {
    private static final int CHUNK = 16 * 1024;
    private static final int SIZE = 256 * 1024;
    /** What Linux 6.18 posts for a splice its cancel interrupted (the kernel-internal ERESTARTSYS). */
    private static final int ERESTARTSYS = 512;

    @TempDir
    Path dir;

    private int file(OpenFds fds, byte[] content) throws IOException {
        Path f = Files.createTempFile(dir, "splice", ".dat");
        Files.write(f, content);
        return fds.add(Fds.open(f, OpenFlags.RDWR, 0));
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    /** splice.c's copy: file -> pipe -> file in CHUNK pieces, each pair linked; with {@code fixed}, all on slots. */
    private void copyThroughAPipe(int setup, boolean fixed) throws IOException {
        byte[] data = random(SIZE);
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int src = file(fds, data);
            int dst = file(fds, new byte[0]);
            int[] pipe = fds.pipe();
            int in = src;
            int pipeW = pipe[1];
            int pipeR = pipe[0];
            int out = dst;
            int inFlag = 0;
            int outFlag = 0;
            if (fixed) {
                ring.registerFiles(new int[] {src, pipe[1], pipe[0], dst});
                in = 0;
                pipeW = 1;
                pipeR = 2;
                out = 3;
                inFlag = Splice.F_FD_IN_FIXED;
                outFlag = SqeFlags.FIXED_FILE;
            }
            for (int at = 0; at < SIZE; at += CHUNK) {
                sqe(ring).prepSplice(in, at, pipeW, -1, CHUNK, inFlag).userData(at).flags(outFlag | SqeFlags.IO_LINK);
                sqe(ring).prepSplice(pipeR, -1, out, at, CHUNK, inFlag).userData(at + 1).flags(outFlag);
                assertEquals(2, ring.submit());
                assertEquals(List.of(cqe(at, CHUNK), cqe(at + 1, CHUNK)), next(ring, 2));
            }
            byte[] copy = new byte[SIZE];
            assertEquals(SIZE, readAt(dst, copy));
            assertArrayEquals(data, copy);
        }
    }

    private static int readAt(int fd, byte[] dst) {
        try (IoUring ring = IoUring.open(4); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(dst.length);
            sqe(ring).prepRead(fd, buf, 0).userData(1);
            ring.submit();
            int n = next(ring).res();
            MemorySegment.copy(buf, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, dst, 0, Math.max(n, 0));
            return n;
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFileIsCopiedThroughAPipe(int setup) throws IOException {
        copyThroughAPipe(setup, false);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFileIsCopiedThroughAPipeOnFixedFiles(int setup) throws IOException {
        copyThroughAPipe(setup, true);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void teeDuplicatesPipeDataWithoutConsumingIt(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] a = fds.pipe();
            int[] b = fds.pipe();
            Fds.write(a[1], ascii("duplicate"));
            sqe(ring).prepTee(a[0], b[1], 64, 0).userData(1);
            ring.submit();
            assertEquals(cqe(1, 9), next(ring));
            assertArrayEquals(ascii("duplicate"), readFully(b[0], 9));
            assertArrayEquals(ascii("duplicate"), readFully(a[0], 9));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aBlockingSpliceWaitsForTheWriter(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] a = fds.pipe();
            int[] b = fds.pipe();
            sqe(ring).prepSplice(a[0], -1, b[1], -1, 5, 0).userData(1);
            ring.submit();
            assertQuiet(ring);
            Fds.write(a[1], ascii("later"));
            assertEquals(cqe(1, 5), next(ring));
            assertArrayEquals(ascii("later"), readFully(b[0], 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void spliceNonblockOnAnEmptyPipeIsEagain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] a = fds.pipe();
            int[] b = fds.pipe();
            sqe(ring).prepSplice(a[0], -1, b[1], -1, 5, Splice.F_NONBLOCK).userData(1);
            sqe(ring).prepTee(a[0], b[1], 5, Splice.F_NONBLOCK).userData(2);
            ring.submit();
            assertEquals(Map.of(1L, cqe(1, -Errno.EAGAIN), 2L, cqe(2, -Errno.EAGAIN)), byUserData(next(ring, 2)));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCancelEndsAWaitingSplice(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] a = fds.pipe();
            int[] b = fds.pipe();
            sqe(ring).prepSplice(a[0], -1, b[1], -1, 5, 0).userData(1);
            ring.submit();
            assertQuiet(ring);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            assertEquals(Map.of(1L, cqe(1, -ERESTARTSYS), 2L, cqe(2, -Errno.EALREADY)), byUserData(next(ring, 2)));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void closingTheRingEndsAWaitingSplice(int setup) {
        try (OpenFds fds = new OpenFds()) {
            int[] a = fds.pipe();
            int[] b = fds.pipe();
            IoUring ring = ring(setup);
            sqe(ring).prepSplice(a[0], -1, b[1], -1, 5, 0).userData(1);
            sqe(ring).prepTee(a[0], b[1], 5, 0).userData(2);
            ring.submit();
            assertQuiet(ring);
            assertTimeoutPreemptively(Duration.ofSeconds(5), ring::close);
        }
    }

    /** A blocking TCP socket's splice would block in the call: jring waits for its data first. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aSocketSplicedIntoAPipeWaitsForItsData(int setup) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.add(Fds.listenTcp(new InetSocketAddress(loopback, 0), 4));
            int client = fds.add(Fds.connectTcp(Fds.localAddress(listener)));
            sqe(ring).prepAccept(listener, 0).userData(1);
            ring.submit();
            int server = fds.add(next(ring).withoutNonEmptyHint().res());
            int[] p = fds.pipe();
            sqe(ring).prepSplice(server, -1, p[1], -1, 64, 0).userData(2);
            ring.submit();
            assertQuiet(ring);
            Fds.write(client, ascii("over tcp"));
            assertEquals(cqe(2, 8), next(ring));
            assertArrayEquals(ascii("over tcp"), readFully(p[0], 8));
            sqe(ring).prepSplice(server, -1, p[1], -1, 64, 0).userData(3);
            ring.submit();
            assertQuiet(ring);
            sqe(ring).prepCancel(3, 0).userData(4);
            ring.submit();
            assertEquals(Map.of(3L, cqe(3, -ERESTARTSYS), 4L, cqe(4, -Errno.EALREADY)), byUserData(next(ring, 2)));
        }
    }
}

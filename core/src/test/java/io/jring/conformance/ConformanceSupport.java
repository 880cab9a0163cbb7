package io.jring.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.Setup;
import io.jring.Sqe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Shared helpers of the conformance suite (not a test class): rings of both kinds, bounded
 * CQE waits, CQEs as comparable values, descriptors closed at the end, "a write from another
 * thread a moment later". Black box: only the public {@code io.jring} API.
 *
 * <p>Every expectation in this package was checked against Linux 6.18's own io_uring (the
 * same test classes run unchanged on the kernel's ring), see {@code io.jring.kernel}.
 * Timing: a wait for something that must happen is bounded by {@link #WAIT} (far above what
 * a passing run needs); something that must not happen early is given {@link #NEVER}, and
 * such requests are always removed, cancelled or dropped with the ring.
 */
final class ConformanceSupport {
    private ConformanceSupport() {}

    /** The second ring kind the scenarios run on (DEFER_TASKRUN requires SINGLE_ISSUER). */
    static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    static final Duration WAIT = Duration.ofSeconds(5);
    /** How long "nothing more happens" is watched for (absence checks only, never synchronisation). */
    static final Duration QUIET = Duration.ofMillis(30);
    static final long MS = 1_000_000L;
    /** A timer that must never expire during a test. */
    static final long NEVER = 10_000 * MS;
    /** Delay before a "later" action, so the owner is usually asleep in its wait when it lands. */
    static final long LATER_MS = 20;
    /** A descriptor number no process has: -EBADF when the request is issued. */
    static final int BAD_FD = 0x3fff_ffff;
    /** An opcode Linux does not have (IORING_OP_LAST is far below). */
    static final int BAD_OPCODE = 250;

    static Stream<Integer> ringKinds() {
        return Stream.of(0, DEFER);
    }

    static IoUring ring(int setup) {
        return IoUring.builder().entries(64).flags(setup).build();
    }

    static Sqe sqe(IoUring ring) {
        Sqe sqe = ring.getSqe();
        assertNotNull(sqe, "SQ full");
        return sqe;
    }

    // ---- CQEs as values ----

    /** One consumed CQE; prints errno and flag names so a failed assertEquals reads well. */
    record Completion(long userData, int res, int flags) {
        @Override
        public String toString() {
            StringBuilder f = new StringBuilder();
            if ((flags & CqeFlags.BUFFER) != 0) {
                f.append("BUFFER(").append(CqeFlags.bufferId(flags)).append(')');
            }
            if ((flags & CqeFlags.MORE) != 0) {
                f.append(f.isEmpty() ? "" : "|").append("MORE");
            }
            int other = flags & 0xffff & ~(CqeFlags.BUFFER | CqeFlags.MORE);
            if (other != 0) {
                f.append(f.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(other));
            }
            String r = res < 0 ? "-" + Errno.name(res) : Integer.toString(res);
            return "{ud=" + userData + " res=" + r + (f.isEmpty() ? "" : " " + f) + "}";
        }
    }

    static Completion cqe(long userData, int res) {
        return new Completion(userData, res, 0);
    }

    static Completion cqe(long userData, int res, int flags) {
        return new Completion(userData, res, flags);
    }

    static Completion cancelled(long userData) {
        return new Completion(userData, -Errno.ECANCELED, 0);
    }

    /** CQE flags of a completion that used provided buffer {@code bid}. */
    static int buffer(int bid) {
        return CqeFlags.BUFFER | bid << CqeFlags.BUFFER_SHIFT;
    }

    /** Waits (bounded) for the next CQE and consumes it. */
    static Completion next(IoUring ring) {
        Cqe c = ring.waitCqe(WAIT);
        assertNotNull(c, "no CQE within " + WAIT);
        Completion out = new Completion(c.userData(), c.res(), c.flags());
        ring.cqeSeen(c);
        return out;
    }

    /** Waits for and consumes exactly {@code n} CQEs, in CQ order. */
    static List<Completion> next(IoUring ring, int n) {
        List<Completion> out = new ArrayList<>(n);
        while (out.size() < n) {
            Cqe c = ring.waitCqe(WAIT);
            assertNotNull(c, "only " + out.size() + " of " + n + " CQEs within " + WAIT + ": " + out);
            out.add(new Completion(c.userData(), c.res(), c.flags()));
            ring.cqeSeen(c);
        }
        return out;
    }

    /** Submits what is prepared and returns the next CQE. */
    static Completion submitAndNext(IoUring ring) {
        ring.submit();
        return next(ring);
    }

    /** CQEs keyed by user data; fails on a repeated user data. */
    static Map<Long, Completion> byUserData(List<Completion> cqes) {
        Map<Long, Completion> out = new HashMap<>();
        for (Completion c : cqes) {
            Completion old = out.put(c.userData(), c);
            if (old != null) {
                fail("two CQEs for user data " + c.userData() + ": " + old + " and " + c + " in " + cqes);
            }
        }
        return out;
    }

    /** Asserts the same CQEs in any order (for requests whose completion order Linux leaves open). */
    static void assertAnyOrder(List<Completion> expected, List<Completion> actual) {
        Comparator<Completion> order = Comparator.comparingLong(Completion::userData)
                .thenComparingInt(Completion::res).thenComparingInt(Completion::flags);
        List<Completion> e = new ArrayList<>(expected);
        List<Completion> a = new ArrayList<>(actual);
        e.sort(order);
        a.sort(order);
        assertEquals(e, a, () -> "in any order: expected " + expected + " but was " + actual);
    }

    /** The user data of {@code cqes}, in order. */
    static List<Long> userData(List<Completion> cqes) {
        return cqes.stream().map(Completion::userData).toList();
    }

    /** No CQE is ready right now (peekCqe runs pending task work first). */
    static void assertNoCqe(IoUring ring) {
        Cqe c = ring.peekCqe();
        assertNull(c, () -> "unexpected " + new Completion(c.userData(), c.res(), c.flags()));
    }

    /** No CQE arrives within {@link #QUIET}: for "this must not complete" checks only. */
    static void assertQuiet(IoUring ring) {
        Cqe c = ring.waitCqe(QUIET);
        assertNull(c, () -> "unexpected " + new Completion(c.userData(), c.res(), c.flags()));
    }

    static void assertErrno(int expectedErrno, Completion c) {
        assertEquals(-expectedErrno, c.res(), () -> "expected -" + Errno.name(expectedErrno) + ", got " + c);
    }

    // ---- bytes ----

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String ascii(MemorySegment seg, int length) {
        byte[] b = new byte[length];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, b, 0, length);
        return new String(b, StandardCharsets.US_ASCII);
    }

    static MemorySegment segment(Arena arena, String ascii) {
        byte[] b = ascii(ascii);
        MemorySegment seg = arena.allocate(Math.max(1, b.length));
        MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 0, b.length);
        return seg.asSlice(0, b.length);
    }

    // ---- "later", on another thread ----

    /** An action running on its own thread after a delay; {@link #join} returns its result. */
    static final class Later<T> implements AutoCloseable {
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private final Thread thread;

        Later(String name, Callable<T> action, long delayMs) {
            thread = Thread.ofPlatform().name("conformance-" + name).daemon().start(() -> {
                try {
                    if (delayMs > 0) {
                        Thread.sleep(delayMs);
                    }
                    result.complete(action.call());
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
        }

        /** Waits (bounded) for the action and returns its result, rethrowing what it threw. */
        T join() {
            try {
                return result.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("action on thread '" + thread.getName() + "' failed", e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("action on thread '" + thread.getName() + "' did not finish within " + WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        @Override
        public void close() {
            join();
        }
    }

    interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action} on a new thread after {@link #LATER_MS}. */
    static Later<Void> later(String name, Action action) {
        return new Later<>(name, () -> {
            action.run();
            return null;
        }, LATER_MS);
    }

    /** Writes ASCII {@code data} to {@code fd} from another thread a moment later. */
    static Later<Void> writeLater(int fd, String data) {
        return later("writer", () -> Fds.write(fd, ascii(data)));
    }

    // ---- descriptors ----

    /** Descriptors a test opened; {@link #close()} closes those still open, ignoring errors. */
    static final class OpenFds implements AutoCloseable {
        private final Set<Integer> open = new LinkedHashSet<>();

        int add(int fd) {
            assertTrue(fd >= 0, "not a descriptor: " + fd);
            open.add(fd);
            return fd;
        }

        int[] pipe() {
            int[] p = Fds.pipe();
            add(p[0]);
            add(p[1]);
            return p;
        }

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

        /** Closes {@code fd} now (it must be one of ours). */
        void close(int fd) {
            assertTrue(open.remove(fd), "fd " + fd + " is not open in this test");
            Fds.close(fd);
        }

        @Override
        public void close() {
            for (int fd : open) {
                try {
                    Fds.close(fd);
                } catch (IoUringException ignored) {
                    // already closed by the code under test: nothing left to release
                }
            }
            open.clear();
        }
    }
}

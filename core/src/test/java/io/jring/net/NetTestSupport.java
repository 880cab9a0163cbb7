package io.jring.net;

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
import io.jring.Setup;
import io.jring.Sqe;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
import org.junit.jupiter.params.provider.Arguments;

/**
 * Shared helpers of the network tests (not a test class): rings of both kinds, bounded CQE
 * waits, CQEs as comparable values, descriptors closed at the end, and "a write from another
 * thread a moment later". Black box: only the public {@code io.jring} API and {@link Fds}.
 *
 * <p>Every expectation in this package was checked against Linux io_uring itself (kernel
 * 6.18, liburing 2.3) with small C probes, and against the kernel's io_uring/net.c, poll.c
 * and kbuf.c; where Linux versions differ the test says so.
 */
final class NetTestSupport {
    private NetTestSupport() {}

    /** The second ring kind every main scenario runs on (DEFER_TASKRUN requires SINGLE_ISSUER). */
    static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** Bound of any single wait; far above what a passing run needs, below the tests' @Timeout. */
    static final Duration WAIT = Duration.ofSeconds(5);
    /** How long "nothing more happens" is watched for (absence checks only, never synchronisation). */
    static final Duration QUIET = Duration.ofMillis(50);
    /** Delay before a "later" action, so the owner is usually asleep in its wait when it lands. */
    static final long LATER_MS = 20;

    /** Linux {@code MSG_*} values (recv/send flags); io.jring has no public constants for them yet. */
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_WAITALL = 0x100;

    static final InetAddress IPV4 = InetAddress.ofLiteral("127.0.0.1");
    static final InetAddress IPV6 = InetAddress.ofLiteral("::1");

    /** Ring kinds as (setup flags) arguments. */
    static Stream<Integer> ringKinds() {
        return Stream.of(0, DEFER);
    }

    /** Ring kinds x loopback families: (setup flags, address). */
    static Stream<Arguments> ringKindsAndLoopbacks() {
        return Stream.of(Arguments.of(0, IPV4), Arguments.of(DEFER, IPV4),
                Arguments.of(0, IPV6), Arguments.of(DEFER, IPV6));
    }

    static IoUring ring(int setup) {
        return IoUring.builder().entries(64).flags(setup).build();
    }

    static IoUring ring(int setup, boolean legacyAsync) {
        return IoUring.builder().entries(64).flags(setup).legacyAsync(legacyAsync).build();
    }

    static Sqe sqe(IoUring ring) {
        Sqe sqe = ring.getSqe();
        assertNotNull(sqe, "SQ full");
        return sqe;
    }

    // ---- CQEs as values ----

    /** One consumed CQE; prints errno and flag names so a failed assertEquals reads well. */
    record Completion(long userData, int res, int flags) {
        /** The same CQE without {@link CqeFlags#SOCK_NONEMPTY} (see {@link #withoutNonEmptyHint}). */
        Completion withoutNonEmptyHint() {
            return new Completion(userData, res, flags & ~CqeFlags.SOCK_NONEMPTY);
        }

        @Override
        public String toString() {
            StringBuilder f = new StringBuilder();
            if ((flags & CqeFlags.BUFFER) != 0) {
                f.append("BUFFER(").append(CqeFlags.bufferId(flags)).append(')');
            }
            if ((flags & CqeFlags.MORE) != 0) {
                f.append(f.isEmpty() ? "" : "|").append("MORE");
            }
            if ((flags & CqeFlags.SOCK_NONEMPTY) != 0) {
                f.append(f.isEmpty() ? "" : "|").append("SOCK_NONEMPTY");
            }
            int other = flags & 0xffff & ~(CqeFlags.BUFFER | CqeFlags.MORE | CqeFlags.SOCK_NONEMPTY);
            if (other != 0 || f.isEmpty()) {
                f.append(f.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(other));
            }
            String r = res < 0 ? "-" + Errno.name(res) : res + " (0x" + Integer.toHexString(res) + ")";
            return "Cqe[ud=" + userData + " res=" + r + " flags=" + f + "]";
        }
    }

    static Completion cqe(long userData, int res) {
        return new Completion(userData, res, 0);
    }

    static Completion cqe(long userData, int res, int flags) {
        return new Completion(userData, res, flags);
    }

    /** CQE flags of a completion that used provided buffer {@code bid}. */
    static int buffer(int bid) {
        return CqeFlags.BUFFER | bid << CqeFlags.BUFFER_SHIFT;
    }

    /**
     * For recv and accept CQEs. {@link CqeFlags#SOCK_NONEMPTY} is a hint whose presence differs
     * between Linux versions and protocols (TCP recv has set it for a long time, AF_UNIX recv
     * and accept only in recent 6.x kernels; TCP even sets it on the EOF recv: all seen on
     * 6.18), so these tests never require it: they compare CQEs without it. (A recv that leaves
     * the socket empty, before EOF, is compared exactly: Linux never sets the hint there.)
     */
    static Completion withoutNonEmptyHint(Completion c) {
        return c.withoutNonEmptyHint();
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
            out.add(next(ring));
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
        MemorySegment seg = arena.allocate(b.length);
        MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 0, b.length);
        return seg;
    }

    /** Reads exactly {@code n} bytes from a blocking fd with {@link Fds#read}. */
    static byte[] readFully(int fd, int n) {
        byte[] out = new byte[n];
        int done = 0;
        while (done < n) {
            byte[] chunk = new byte[Math.min(n - done, 65536)];
            int r = Fds.read(fd, chunk);
            if (r == 0) {
                fail("EOF after " + done + " of " + n + " bytes on fd " + fd);
            }
            System.arraycopy(chunk, 0, out, done, r);
            done += r;
        }
        return out;
    }

    // ---- "later", on another thread ----

    /** An action running on its own thread after {@link #LATER_MS}; {@link #join} returns its result. */
    static final class Later<T> implements AutoCloseable {
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private final Thread thread;

        private Later(String name, Callable<T> action, long delayMs) {
            thread = Thread.ofPlatform().name("net-test-" + name).daemon().start(() -> {
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

    /** Runs {@code action} on a new thread after {@link #LATER_MS} and keeps its result. */
    static <T> Later<T> laterCall(String name, Callable<T> action) {
        return new Later<>(name, action, LATER_MS);
    }

    /** Runs {@code action} on a new thread at once. */
    static <T> Later<T> concurrently(String name, Callable<T> action) {
        return new Later<>(name, action, 0);
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

        int[] add(int[] fds) {
            for (int fd : fds) {
                add(fd);
            }
            return fds;
        }

        int[] pipe() {
            return add(Fds.pipe());
        }

        int[] socketPair() {
            return add(Fds.socketPair());
        }

        /** A loopback TCP listener on a free port. */
        int listen(InetAddress loopback, int backlog) {
            return add(Fds.listenTcp(new InetSocketAddress(loopback, 0), backlog));
        }

        int connect(InetSocketAddress address) {
            return add(Fds.connectTcp(address));
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

    /** A port that was free a moment ago: bound, then released (connects to it are refused). */
    static InetSocketAddress closedPort(InetAddress loopback) {
        int fd = Fds.listenTcp(new InetSocketAddress(loopback, 0), 1);
        InetSocketAddress address = Fds.localAddress(fd);
        Fds.close(fd);
        return address;
    }

    static void assertErrno(int expectedErrno, Completion c) {
        assertEquals(-expectedErrno, c.res(), () -> "expected -" + Errno.name(expectedErrno) + ", got " + c);
    }
}

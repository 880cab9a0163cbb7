package io.jring.testkit;

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
import java.nio.charset.StandardCharsets;
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
 * Helpers the black-box suites share (not a test class): rings of both kinds, bounded CQE
 * waits, CQEs as comparable values, descriptors closed at the end, "an action on another
 * thread a moment later". Only the public {@code io.jring} API. Each suite's support class
 * extends this one and adds its own constants and its absence-check window ({@code QUIET}).
 */
public class RingTestSupport {
    protected RingTestSupport() {}

    /** The second ring kind the scenarios run on (DEFER_TASKRUN requires SINGLE_ISSUER). */
    public static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;
    /** Bound of any single wait; far above what a passing run needs, below the tests' @Timeout. */
    public static final Duration WAIT = Duration.ofSeconds(5);
    /** Delay before a "later" action, so the owner is usually asleep in its wait when it lands. */
    public static final long LATER_MS = 20;

    /** Ring kinds as (setup flags) arguments. */
    public static Stream<Integer> ringKinds() {
        return Stream.of(0, DEFER);
    }

    public static IoUring ring(int setup) {
        return IoUring.builder().entries(64).flags(setup).build();
    }

    public static Sqe sqe(IoUring ring) {
        Sqe sqe = ring.getSqe();
        assertNotNull(sqe, "SQ full");
        return sqe;
    }

    // ---- CQEs as values ----

    /** One consumed CQE; prints errno and flag names so a failed assertEquals reads well. */
    public record Completion(long userData, int res, int flags) {
        /** The same CQE without {@link CqeFlags#SOCK_NONEMPTY}, a hint whose presence differs between Linux versions. */
        public Completion withoutNonEmptyHint() {
            return new Completion(userData, res, flags & ~CqeFlags.SOCK_NONEMPTY);
        }

        @Override
        public String toString() {
            String f = flagNames(flags);
            String r = res < 0 ? "-" + Errno.name(res) : Integer.toString(res);
            return "{ud=" + userData + " res=" + r + (f.isEmpty() ? "" : " " + f) + "}";
        }
    }

    /** CQE flags for failure messages: BUFFER(bid), MORE, SOCK_NONEMPTY, other bits in hex; "" for none. */
    public static String flagNames(int flags) {
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
        if (other != 0) {
            f.append(f.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(other));
        }
        return f.toString();
    }

    public static Completion cqe(long userData, int res) {
        return new Completion(userData, res, 0);
    }

    public static Completion cqe(long userData, int res, int flags) {
        return new Completion(userData, res, flags);
    }

    public static Completion cancelled(long userData) {
        return new Completion(userData, -Errno.ECANCELED, 0);
    }

    /** CQE flags of a completion that used provided buffer {@code bid}. */
    public static int buffer(int bid) {
        return CqeFlags.BUFFER | bid << CqeFlags.BUFFER_SHIFT;
    }

    /** Waits (bounded) for the next CQE and consumes it. */
    public static Completion next(IoUring ring) {
        Cqe c = ring.waitCqe(WAIT);
        assertNotNull(c, "no CQE within " + WAIT);
        Completion out = new Completion(c.userData(), c.res(), c.flags());
        ring.cqeSeen(c);
        return out;
    }

    /** Waits for and consumes exactly {@code n} CQEs, in CQ order. */
    public static List<Completion> next(IoUring ring, int n) {
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
    public static Completion submitAndNext(IoUring ring) {
        ring.submit();
        return next(ring);
    }

    /** CQEs keyed by user data; fails on a repeated user data. */
    public static Map<Long, Completion> byUserData(List<Completion> cqes) {
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
    public static void assertAnyOrder(List<Completion> expected, List<Completion> actual) {
        Comparator<Completion> order = Comparator.comparingLong(Completion::userData)
                .thenComparingInt(Completion::res).thenComparingInt(Completion::flags);
        List<Completion> e = new ArrayList<>(expected);
        List<Completion> a = new ArrayList<>(actual);
        e.sort(order);
        a.sort(order);
        assertEquals(e, a, () -> "in any order: expected " + expected + " but was " + actual);
    }

    /** The user data of {@code cqes}, in order. */
    public static List<Long> userData(List<Completion> cqes) {
        return cqes.stream().map(Completion::userData).toList();
    }

    /** No CQE is ready right now (peekCqe runs pending task work first). */
    public static void assertNoCqe(IoUring ring) {
        Cqe c = ring.peekCqe();
        assertNull(c, () -> "unexpected " + new Completion(c.userData(), c.res(), c.flags()));
    }

    /** No CQE arrives within {@code window}: for "this must not complete" checks only. */
    protected static void assertQuietFor(IoUring ring, Duration window) {
        Cqe c = ring.waitCqe(window);
        assertNull(c, () -> "unexpected " + new Completion(c.userData(), c.res(), c.flags()));
    }

    public static void assertErrno(int expectedErrno, Completion c) {
        assertEquals(-expectedErrno, c.res(), () -> "expected -" + Errno.name(expectedErrno) + ", got " + c);
    }

    // ---- bytes ----

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public static String ascii(MemorySegment seg, int length) {
        byte[] b = new byte[length];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, b, 0, length);
        return new String(b, StandardCharsets.US_ASCII);
    }

    public static MemorySegment segment(Arena arena, String ascii) {
        byte[] b = ascii(ascii);
        MemorySegment seg = arena.allocate(Math.max(1, b.length));
        MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 0, b.length);
        return seg.asSlice(0, b.length);
    }

    // ---- "later", on another thread ----

    /** An action running on its own thread after a delay; {@link #join} returns its result. */
    public static final class Later<T> implements AutoCloseable {
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private final Thread thread;

        private Later(String name, Callable<T> action, long delayMs) {
            thread = Thread.ofPlatform().name("test-" + name).daemon().start(() -> {
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
        public T join() {
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

    public interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action} on a new thread after {@link #LATER_MS}. */
    public static Later<Void> later(String name, Action action) {
        return new Later<>(name, () -> {
            action.run();
            return null;
        }, LATER_MS);
    }

    /** Runs {@code action} on a new thread after {@link #LATER_MS} and keeps its result. */
    public static <T> Later<T> laterCall(String name, Callable<T> action) {
        return new Later<>(name, action, LATER_MS);
    }

    /** Runs {@code action} on a new thread at once. */
    public static <T> Later<T> concurrently(String name, Callable<T> action) {
        return new Later<>(name, action, 0);
    }

    /** Writes ASCII {@code data} to {@code fd} from another thread a moment later. */
    public static Later<Void> writeLater(int fd, String data) {
        return later("writer", () -> Fds.write(fd, ascii(data)));
    }

    /** Reads exactly {@code n} bytes from a blocking fd with {@link Fds#read}. */
    public static byte[] readFully(int fd, int n) {
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

    // ---- descriptors ----

    /** Descriptors a test opened; {@link #close()} closes those still open, ignoring errors. */
    public static class Descriptors implements AutoCloseable {
        private final Set<Integer> open = new LinkedHashSet<>();

        public int add(int fd) {
            assertTrue(fd >= 0, "not a descriptor: " + fd);
            open.add(fd);
            return fd;
        }

        public int[] add(int[] fds) {
            for (int fd : fds) {
                add(fd);
            }
            return fds;
        }

        public int[] pipe() {
            return add(Fds.pipe());
        }

        public int[] socketPair() {
            return add(Fds.socketPair());
        }

        /** Closes {@code fd} now (it must be one of ours). */
        public void close(int fd) {
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

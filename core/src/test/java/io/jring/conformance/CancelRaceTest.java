package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.WAIT;
import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cancel;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cancellation racing with completion (liburing test/cancel-race.c): a request and its
 * cancel always give exactly two CQEs that agree with each other, never both a result and a
 * successful cancel, never neither. A request cancelled in the same submit it was armed in
 * is always found (the cancel runs after the arming); with data arriving from another thread
 * at any moment, either the request completes and the cancel finds nothing (-ENOENT), or the
 * cancel wins (0) and the request is -ECANCELED. Cancels on one ring never touch another's.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CancelRaceTest {
    private static final int ITERATIONS = 1000;

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aPollCancelledInItsOwnSubmitIsAlwaysFound(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            for (int i = 0; i < ITERATIONS; i++) {
                long poll = 2L * i;
                sqe(ring).prepPollAdd(p[0], Poll.IN).userData(poll);
                sqe(ring).prepCancel(poll, 0).userData(poll + 1);
                assertEquals(2, ring.submit());
                assertAnyOrder(List.of(cancelled(poll), cqe(poll + 1, 0)), next(ring, 2));
            }
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadCancelledInItsOwnSubmitIsAlwaysFound(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            var buf = arena.allocate(32);
            for (int i = 0; i < ITERATIONS; i++) {
                long read = 2L * i;
                sqe(ring).prepRead(p[0], buf, -1).userData(read);
                sqe(ring).prepCancel(read, 0).userData(read + 1);
                assertEquals(2, ring.submit());
                assertAnyOrder(List.of(cancelled(read), cqe(read + 1, 0)), next(ring, 2));
            }
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCancelRacingWithDataFromAnotherThreadAgreesWithItsPoll(int setup) throws Exception {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            AtomicBoolean stop = new AtomicBoolean();
            // The racer makes the pipe readable and empty again and again (a byte in, the byte
            // out) while the owner arms polls and cancels them.
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                byte[] one = new byte[1];
                while (!stop.get()) {
                    Fds.write(p[1], ascii("x"));
                    for (int spin = 0; spin < 1000; spin++) {
                        Thread.onSpinWait();
                    }
                    Fds.read(p[0], one);
                }
            }, r -> Thread.ofPlatform().daemon().name("conformance-racer").start(r));
            int won = 0;
            int lost = 0;
            try {
                for (int i = 0; i < ITERATIONS; i++) {
                    long poll = 2L * i;
                    sqe(ring).prepPollAdd(p[0], Poll.IN).userData(poll);
                    ring.submit();
                    sqe(ring).prepCancel(poll, 0).userData(poll + 1);
                    ring.submit();
                    List<Completion> got = next(ring, 2);
                    Completion pc = got.stream().filter(c -> c.userData() == poll).findFirst().orElseThrow();
                    Completion cc = got.stream().filter(c -> c.userData() == poll + 1).findFirst().orElseThrow();
                    if (cc.res() == 0) {
                        assertEquals(cancelled(poll), pc, "the cancel won: " + got);
                        won++;
                    } else {
                        assertEquals(cqe(poll + 1, -Errno.ENOENT), cc, "the poll completed first: " + got);
                        assertEquals(cqe(poll, Poll.IN), pc, got.toString());
                        lost++;
                    }
                }
            } finally {
                stop.set(true);
                writer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            assertEquals(ITERATIONS, won + lost, "won " + won + ", lost " + lost);
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancelsOnAnotherRingAndThreadNeverTouchThisRing(int setup) throws Exception {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            AtomicBoolean stop = new AtomicBoolean();
            List<Completion> foreign = new ArrayList<>();
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try (IoUring other = ring(setup)) {
                    for (long n = 0; !stop.get(); n++) {
                        sqe(other).prepCancel(0, Cancel.ANY).userData(n);
                        other.submit();
                        foreign.add(next(other));
                    }
                }
            }, r -> Thread.ofPlatform().daemon().name("conformance-canceller").start(r));
            int polls = 256;
            try {
                for (int i = 0; i < polls; i += 16) {
                    for (int j = 0; j < 16; j++) {
                        sqe(ring).prepPollAdd(p[0], Poll.IN).userData(i + j);
                    }
                    assertEquals(16, ring.submit());
                    assertTrue(ring.peekCqe() == null, "a poll of this ring completed");
                }
            } finally {
                stop.set(true);
                canceller.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            assertTrue(foreign.stream().allMatch(c -> c.res() == 0), "the other ring had nothing: " + foreign);
            sqe(ring).prepCancel(0, Cancel.ANY | Cancel.ALL).userData(-1L);
            ring.submit();
            List<Completion> got = next(ring, polls + 1);
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < polls; i++) {
                want.add(cancelled(i));
            }
            want.add(cqe(-1L, polls));
            assertAnyOrder(want, got);
        }
    }
}

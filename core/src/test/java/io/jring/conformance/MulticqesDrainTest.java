package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IOSQE_IO_DRAIN with multishot requests (liburing test/multicqes_drain.c): a multishot poll
 * counts as complete for a drain only when it has ended (its final CQE, without MORE); the
 * CQEs it posts while armed do not let a drain through. Plus a randomised mix of multishot
 * polls, one-shot polls, NOPs and POLL_REMOVEs with random link/drain flags (under
 * multicqes_drain.c's rules, which keep the mix free of deadlocks) checked for "a drained
 * request completes after every earlier one".
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MulticqesDrainTest {

    /** Writes one byte, waits for the multishot CQE it causes, and reads the byte back. */
    private static Completion trigger(IoUring ring, int[] pipe) {
        Fds.write(pipe[1], ascii("x"));
        Completion c = next(ring);
        assertEquals(1, Fds.read(pipe[0], new byte[1]));
        return c;
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainAfterARemovedMultishotPollComesLast(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            for (int round = 0; round < 3; round++) {
                int[] p1 = fds.pipe();
                int[] p2 = fds.pipe();
                sqe(ring).prepPollMultishot(p1[0], Poll.IN).userData(0);
                sqe(ring).prepPollAdd(p2[0], Poll.IN).userData(1);
                assertEquals(2, ring.submit());
                assertEquals(cqe(0, Poll.IN, CqeFlags.MORE), trigger(ring, p1));
                assertEquals(cqe(0, Poll.IN, CqeFlags.MORE), trigger(ring, p1));
                assertEquals(cqe(1, Poll.IN), trigger(ring, p2));
                sqe(ring).prepPollRemove(0).userData(2);
                sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_DRAIN);
                assertEquals(2, ring.submit());
                List<Completion> got = next(ring, 3);
                assertAnyOrder(List.of(cancelled(0), cqe(2, 0)), got.subList(0, 2));
                assertEquals(cqe(3, 0), got.get(2), "the drain comes last: " + got);
                assertQuiet(ring);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainDoesNotPassAnArmedMultishotPollThatPostedCqes(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(1);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            assertEquals(2, ring.submit());
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), trigger(ring, p));
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), trigger(ring, p));
            assertQuiet(ring);
            // Everything submitted now waits behind the drain, which waits for the poll: only
            // closing the ring ends this (Linux's multicqes_drain.c never drains while a multishot
            // request is armed for that reason).
            sqe(ring).prepPollRemove(1).userData(3);
            assertEquals(1, ring.submit());
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), trigger(ring, p), "the remove did not run");
            assertQuiet(ring);
        }
    }

    enum Op { MULTI, SINGLE, NOP, REMOVE }

    /** One generated SQE: its operation, flags, and a remove's target. */
    record Gen(Op op, int flags, int target) {}

    /**
     * A random round in three submits, under multicqes_drain.c's rules (no drain while a
     * multishot poll is armed: it would never complete; no multishot poll or remove inside a
     * chain). First: one-shot polls and NOPs, some linked. Second, once those completed:
     * multishot polls. Third, once each multishot poll has posted a CQE: a POLL_REMOVE for
     * each, then more one-shot polls and NOPs with random link/drain flags, whose drains must
     * wait for the multishot polls to end.
     *
     * <p>Why so, and not one random submit as in liburing: Linux issues the requests a drain
     * held back through task work and io-wq, not in submission order, so a remove held back by
     * a drain may run before its target is armed (-ENOENT), and the target then holds every
     * later drain forever (liburing's test only peeks at whatever completed). And in Linux
     * 6.18 a ring stays in "drain mode" after a drain until a request is submitted while
     * nothing else is in flight: until then every new request waits for all in-flight ones,
     * armed multishot polls included. So no drain comes before the multishot polls.
     */
    static List<Gen> generate(SplittableRandom rnd, int before, int multis, int after) {
        int[] flagChoices = {0, SqeFlags.IO_LINK, SqeFlags.IO_DRAIN, SqeFlags.IO_LINK | SqeFlags.IO_DRAIN};
        List<Gen> out = new ArrayList<>();
        for (int i = 0; i < before; i++) {
            int flags = flagChoices[rnd.nextInt(2)];
            if (i == before - 1) {
                flags &= ~SqeFlags.IO_LINK;
            }
            out.add(new Gen(rnd.nextBoolean() ? Op.SINGLE : Op.NOP, flags, -1));
        }
        for (int i = 0; i < multis; i++) {
            out.add(new Gen(Op.MULTI, 0, -1));
        }
        for (int i = 0; i < multis; i++) {
            out.add(new Gen(Op.REMOVE, 0, before + i));
        }
        for (int i = 0; i < after; i++) {
            out.add(new Gen(rnd.nextBoolean() ? Op.SINGLE : Op.NOP, flagChoices[rnd.nextInt(4)], -1));
        }
        return out;
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void randomDrainsCompleteAfterEveryEarlierRequestAndBeforeEveryLaterOne(int setup) {
        for (long seed = 1; seed <= 5; seed++) {
            try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
                SplittableRandom rnd = new SplittableRandom(seed);
                int multis = 1 + rnd.nextInt(4);
                runRandomDrain(ring, fds, generate(rnd, 12 + rnd.nextInt(10), multis, 12 + rnd.nextInt(10)), multis,
                        seed);
            }
        }
    }

    private static void runRandomDrain(IoUring ring, OpenFds fds, List<Gen> gens, int multis, long seed) {
        int n = gens.size();
        int firstMulti = gens.indexOf(gens.stream().filter(g -> g.op() == Op.MULTI).findFirst().orElseThrow());
        int firstRemove = firstMulti + multis;
        int[][] pipes = new int[n][];
        for (int i = 0; i < n; i++) {
            Op op = gens.get(i).op();
            if (op == Op.MULTI || op == Op.SINGLE) {
                pipes[i] = fds.pipe();
            }
            if (op == Op.SINGLE) {
                // Ready before it is armed: every one-shot poll, also one armed late behind a
                // drain, completes at once.
                Fds.write(pipes[i][1], ascii("x"));
            }
        }
        boolean[] done = new boolean[n];
        List<Completion> log = new ArrayList<>();
        prep(ring, gens, pipes, 0, firstMulti);
        assertEquals(firstMulti, ring.submit());
        awaitFinals(ring, gens, done, log, firstMulti, seed);
        prep(ring, gens, pipes, firstMulti, firstRemove);
        assertEquals(multis, ring.submit());
        for (int i = firstMulti; i < firstRemove; i++) {
            Fds.write(pipes[i][1], ascii("x"));
            Cqe cqe = ring.waitCqe(ConformanceSupport.WAIT);
            int multi = i;
            assertNotNull(cqe, () -> "no CQE from multishot poll " + multi + "; seed " + seed + ", CQEs " + log);
            Completion c = new Completion(cqe.userData(), cqe.res(), cqe.flags());
            ring.cqeSeen(cqe);
            log.add(c);
            assertEquals(cqe(i, Poll.IN, CqeFlags.MORE), c, "multishot poll " + i + " armed; seed " + seed);
            assertEquals(1, Fds.read(pipes[i][0], new byte[1]));
        }
        prep(ring, gens, pipes, firstRemove, n);
        assertEquals(n - firstRemove, ring.submit());
        awaitFinals(ring, gens, done, log, n - firstMulti, seed);
        assertQuiet(ring);
    }

    private static void prep(IoUring ring, List<Gen> gens, int[][] pipes, int from, int to) {
        for (int i = from; i < to; i++) {
            Gen g = gens.get(i);
            Sqe sqe = switch (g.op()) {
                case MULTI -> sqe(ring).prepPollMultishot(pipes[i][0], Poll.IN);
                case SINGLE -> sqe(ring).prepPollAdd(pipes[i][0], Poll.IN);
                case NOP -> sqe(ring).prepNop();
                case REMOVE -> sqe(ring).prepPollRemove(g.target());
            };
            sqe.userData(i).flags(g.flags());
        }
    }

    /** Consumes CQEs until {@code count} final ones arrived, checking each and the drain rule. */
    private static void awaitFinals(IoUring ring, List<Gen> gens, boolean[] done, List<Completion> log, int count,
            long seed) {
        int n = gens.size();
        for (int finals = 0; finals < count; ) {
            Cqe cqe = ring.waitCqe(ConformanceSupport.WAIT);
            assertNotNull(cqe, () -> "a final CQE is missing; seed " + seed + ", SQEs " + gens + ", CQEs " + log);
            Completion c = new Completion(cqe.userData(), cqe.res(), cqe.flags());
            ring.cqeSeen(cqe);
            log.add(c);
            int i = (int) c.userData();
            Gen g = gens.get(i);
            String context = "seed " + seed + ", SQEs " + gens + ", CQEs so far " + log;
            boolean isFinal = (c.flags() & CqeFlags.MORE) == 0;
            Completion want = switch (g.op()) {
                case MULTI -> cancelled(i);
                case SINGLE -> cqe(i, Poll.IN);
                case NOP, REMOVE -> cqe(i, 0);
            };
            assertEquals(want, c, context);
            assertTrue(isFinal && !done[i], "one final CQE for " + i + ": " + context);
            for (int j = 0; j < n; j++) {
                boolean drainBefore = j < i && (gens.get(j).flags() & SqeFlags.IO_DRAIN) != 0;
                assertTrue(!drainBefore || done[j], "SQE " + i + " completed before the earlier drain " + j + ": "
                        + context);
                if ((g.flags() & SqeFlags.IO_DRAIN) != 0 && j < i) {
                    assertTrue(done[j], "drain " + i + " completed before the earlier SQE " + j + ": " + context);
                }
            }
            done[i] = true;
            finals++;
        }
    }
}

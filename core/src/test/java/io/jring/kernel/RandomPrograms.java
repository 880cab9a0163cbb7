package io.jring.kernel;

import io.jring.Cancel;
import io.jring.kernel.ProgramModel.Channel;
import io.jring.kernel.ProgramModel.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Writes random io_uring programs whose outcome on Linux is deterministic, for
 * {@link RandomCrossCheck}. A program is a few rounds of: writes from the test thread to
 * pipes and sockets, a batch of SQEs, and a settle ({@code Quiet}) after each, so that
 * readiness is made between submits, never by a racing thread. Within a batch:
 * <ul>
 *   <li>each pipe or socket direction has one reader or poller in all (a second one would
 *       make which of them Linux wakes first part of the outcome), and at most one write per
 *       settle period;</li>
 *   <li>a batch with io-wq work (IOSQE_ASYNC, FSYNC, a buffered file write) holds no cancel,
 *       remove, counted or expiring timeout, nor expiring link timeout: those would race
 *       with the worker;</li>
 *   <li>an expiring timeout is short (under {@link #SETTLE_MS}) and expires in the settle
 *       after its batch, when nothing else can complete;</li>
 *   <li>a file write never extends the file; offsets are explicit;</li>
 *   <li>an SQE that Linux fails at prep (bad opcode, unknown flag) ends its batch.</li>
 * </ul>
 * Patterns jring is known to get wrong are generated only when their {@link FuzzFeature} is
 * on, and tag the SQEs involved. The same (seed, index, attempt, switches) always writes the
 * same program.
 */
final class RandomPrograms {
    static final long MS = 1_000_000L;
    static final long NEVER = Scenarios.NEVER;
    /** The settle after each step; expiring timeouts are shorter. */
    static final long SETTLE_MS = 20;
    /** The settle after a batch with io-wq work (a worker may have to start, an fsync to reach the disk). */
    static final long SETTLE_IO_WQ_MS = 50;
    static final int FILE_SIZE = 64;
    static final int BAD_OPCODE = Scenarios.BAD_OPCODE;
    static final String HUGE_FD = "#" + Integer.MAX_VALUE;
    static final String HUGE_FIXED_INDEX = "#" + (1 << 30);

    private RandomPrograms() {}

    /** A 64-bit finalizer (murmur3's), so that nearby seeds give unrelated streams. */
    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
        return z ^ (z >>> 33);
    }

    static RandomProgram generate(long seed, int index, int attempt, Set<FuzzFeature> on) {
        long mixed = mix(seed ^ mix(index * 0x632B_E59B_D9B4_E019L + attempt + 1));
        Writer w = new Writer(new SplittableRandom(mixed), on);
        List<RandomProgram.Step> steps = w.write();
        return new RandomProgram(seed, index, attempt, on, w.file, w.closables, steps);
    }

    /** One program being written. */
    static final class Writer {
        final SplittableRandom rnd;
        final Set<FuzzFeature> on;
        final ProgramModel m = new ProgramModel();
        final List<RandomProgram.Step> steps = new ArrayList<>();
        final String file;
        final BatchWriter ops;
        int closables;

        Writer(SplittableRandom rnd, Set<FuzzFeature> on) {
            this.rnd = rnd;
            this.on = on;
            this.file = "0123456789abcdef".repeat(FILE_SIZE / 16);
            this.ops = new BatchWriter(this);
        }

        List<RandomProgram.Step> write() {
            if (rnd.nextInt(4) == 0) {
                ops.registerFiles(steps);
            }
            int rounds = 1 + rnd.nextInt(5);
            for (int r = 0; r < rounds; r++) {
                writes();
                batch();
            }
            if (rnd.nextInt(3) == 0) {
                writes();
            }
            if (rnd.nextInt(3) == 0) {
                cleanup();
            }
            return steps;
        }

        void settle() {
            settle(SETTLE_MS);
        }

        void settle(long millis) {
            steps.add(new RandomProgram.Quiet(millis));
            m.period++;
        }

        /** Up to two writes from the test thread, to different channels, then a settle. */
        void writes() {
            int n = rnd.nextInt(3);
            boolean any = false;
            for (int i = 0; i < n; i++) {
                List<Channel> open = m.channels(c -> ops.writable(c) > 0);
                if (open.isEmpty()) {
                    break;
                }
                List<Channel> fed = open.stream().filter(c -> c.consumer != null).toList();
                Channel c = !fed.isEmpty() && rnd.nextInt(4) != 0 ? pick(fed) : pick(open);
                int bytes = 1 + rnd.nextInt(Math.min(100, ops.writable(c)));
                steps.add(new RandomProgram.Write(c.write, bytes));
                m.written(c, bytes, true);
                any = true;
            }
            if (any) {
                settle();
            }
        }

        void batch() {
            m.batch++;
            ops.startBatch();
            int n = 1 + rnd.nextInt(8);
            if (ops.drainEpilogue) {
                ops.drainEpilogueNop();
            }
            for (int i = 0; i < n && !ops.ended; i++) {
                ops.generate(i == n - 1);
            }
            if (ops.batch.isEmpty()) {
                ops.fallbackNop();
            }
            ops.endBatch();
            steps.add(new RandomProgram.Submit(ops.batch.stream().map(o -> o.sqe).toList()));
            settle(ops.batch.stream().anyMatch(o -> o.ioWq) ? SETTLE_IO_WQ_MS : SETTLE_MS);
        }

        /** A last ASYNC_CANCEL(ANY | ALL) of whatever is still pending, if that is no switched pattern. */
        void cleanup() {
            m.batch++;
            ops.startBatch();
            if (ops.cancels.cancel(0, Cancel.ANY | Cancel.ALL, null) != null) {
                ops.endBatch();
                steps.add(new RandomProgram.Submit(ops.batch.stream().map(o -> o.sqe).toList()));
                settle();
            }
        }

        <T> T pick(List<T> from) {
            return from.get(rnd.nextInt(from.size()));
        }

        boolean chance(int percent) {
            return rnd.nextInt(100) < percent;
        }
    }
}

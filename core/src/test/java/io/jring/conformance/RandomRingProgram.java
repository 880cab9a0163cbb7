package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Poll;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One ring's random program for {@link RandomModelTest}: generated batch by batch, submitted
 * and fed on the ring's owner thread, then checked against the oracle described there.
 */
final class RandomRingProgram {
    static final int SLOT = 16;
    static final int FILE_SLOTS = 4096;

    enum Kind { NOP, TIMEOUT, PIPE_READ, PIPE_WRITE, FILE_READ, FILE_WRITE, MULTISHOT, CANCEL }

    /** One generated SQE and what the oracle needs to know about it. */
    record Op(long ud, Kind kind, int flags, int len, int pipe, int slot, long nanos, int count, long target,
            int batch, int indexInBatch) {
        boolean links() {
            return (flags & (SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK)) != 0;
        }

        boolean skips() {
            return (flags & SqeFlags.CQE_SKIP_SUCCESS) != 0;
        }

        @Override
        public String toString() {
            return ud + ":" + kind + (len > 0 ? "(" + len + ")" : "") + (target >= 0 ? "->" + target : "")
                    + (flags != 0 ? "[" + flagNames(flags) + "]" : "");
        }
    }

    static String flagNames(int f) {
        StringBuilder s = new StringBuilder();
        String[] names = {"FIXED", "DRAIN", "LINK", "HARDLINK", "ASYNC", "BSEL", "SKIP"};
        for (int i = 0; i < names.length; i++) {
            if ((f & (1 << i)) != 0) {
                s.append(s.isEmpty() ? "" : "|").append(names[i]);
            }
        }
        return s.toString();
    }

    final String label;
    final SplittableRandom rnd;
    final int setup;
    final boolean drains;
    final Path dir;
    final List<Op> ops = new ArrayList<>();
    final Map<Long, Op> byUd = new HashMap<>();
    final List<Completion> log = new ArrayList<>();
    final Map<Long, List<Integer>> cqeIndexes = new HashMap<>();
    final List<List<Op>> batches = new ArrayList<>();
    int nextSlot;
    long nextUd = 1;
    boolean multishotsCancelled;

    RandomRingProgram(String label, SplittableRandom rnd, int setup, boolean drains, Path dir) {
        this.label = label;
        this.rnd = rnd;
        this.setup = setup;
        this.drains = drains;
        this.dir = dir;
    }

    void run() throws IOException {
        Path path = Files.createTempFile(dir, "random-model", ".dat");
        Files.write(path, new byte[SLOT * FILE_SLOTS]);
        try (ConformanceSupport.OpenFds fds = new ConformanceSupport.OpenFds();
                IoUring ring = IoUring.builder().entries(64).cqEntries(256).flags(setup).build();
                Arena arena = Arena.ofShared()) {
            int file = fds.add(Fds.open(path, OpenFlags.RDWR, 0));
            int[][] readPipes = {fds.pipe(), fds.pipe()};
            int[] writePipe = fds.pipe();
            int[] pollPipe = fds.pipe();
            int batchCount = 6 + rnd.nextInt(7);
            for (int b = 0; b < batchCount; b++) {
                List<Op> batch = generateBatch(b);
                batches.add(batch);
                for (Op op : batch) {
                    prep(ring, op, file, readPipes, writePipe, pollPipe, arena);
                }
                assertEquals(batch.size(), ring.submit(), label);
                for (Op op : batch) {
                    if (op.kind() == Kind.PIPE_READ) {
                        Fds.write(readPipes[op.pipe()][1], ascii("r".repeat(op.len())));
                    }
                }
                if (!drains && rnd.nextInt(3) == 0) {
                    Fds.write(pollPipe[1], ascii("p"));
                }
                if (rnd.nextBoolean()) {
                    reapReady(ring);
                }
            }
            awaitFinals(ring);
            // Each multishot poll ends with an ASYNC_CANCEL (POLL_REMOVE could find it busy
            // posting a CQE and answer -EALREADY, leaving it armed).
            List<Op> cancels = new ArrayList<>();
            for (Op m : ops.stream().filter(o -> o.kind() == Kind.MULTISHOT).toList()) {
                long ud = nextUd++;
                Op cancel = new Op(ud, Kind.CANCEL, 0, 0, -1, -1, 0, 0, m.ud(), batches.size(), cancels.size());
                cancels.add(cancel);
                byUd.put(ud, cancel);
                ConformanceSupport.sqe(ring).prepCancel(m.ud(), 0).userData(ud);
                if (ring.sqSpaceLeft() == 0) {
                    ring.submit();
                }
            }
            ring.submit();
            ops.addAll(cancels);
            batches.add(cancels);
            multishotsCancelled = true;
            awaitFinals(ring);
            Cqe late = ring.waitCqe(java.time.Duration.ofMillis(30));
            while (late != null) {
                record(late.userData(), late.res(), late.flags());
                ring.cqeSeen(late);
                late = ring.waitCqe(java.time.Duration.ofMillis(30));
            }
            check();
            checkWrites(file, writePipe, arena);
        }
    }

    List<Op> generateBatch(int batch) {
        int size = 1 + rnd.nextInt(12);
        List<Op> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            long ud = nextUd++;
            boolean inChain = i > 0 && out.get(i - 1).links();
            Kind kind = pickKind(inChain);
            int flags = 0;
            int roll = rnd.nextInt(10);
            if (kind != Kind.MULTISHOT && roll < 3) {
                flags |= SqeFlags.IO_LINK;
            } else if (kind != Kind.MULTISHOT && roll == 3) {
                flags |= SqeFlags.IO_HARDLINK;
            }
            if (drains && rnd.nextInt(8) == 0) {
                flags |= SqeFlags.IO_DRAIN;
            }
            if ((kind == Kind.NOP || kind == Kind.FILE_READ || kind == Kind.FILE_WRITE || kind == Kind.PIPE_READ)
                    && rnd.nextInt(5) == 0) {
                flags |= SqeFlags.ASYNC;
            }
            if (kind == Kind.NOP && !drains && (flags & (SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK)) == 0
                    && rnd.nextInt(3) == 0) {
                flags |= SqeFlags.CQE_SKIP_SUCCESS;
            }
            int len = switch (kind) {
                case PIPE_READ, PIPE_WRITE -> 1 + rnd.nextInt(32);
                case FILE_READ, FILE_WRITE -> SLOT;
                default -> 0;
            };
            int slot = switch (kind) {
                case FILE_WRITE -> nextSlot++;
                case FILE_READ -> rnd.nextInt(FILE_SLOTS);
                default -> -1;
            };
            long target = -1;
            if (kind == Kind.CANCEL) {
                target = 1 + rnd.nextLong(ud - 1);
            }
            Op op = new Op(ud, kind, flags, len, rnd.nextInt(2), slot, (1 + rnd.nextInt(20)) * MS,
                    rnd.nextInt(3), target, batch, i);
            out.add(op);
            ops.add(op);
            byUd.put(ud, op);
        }
        return out;
    }

    Kind pickKind(boolean inChain) {
        while (true) {
            Kind k = Kind.values()[rnd.nextInt(Kind.values().length)];
            if (k == Kind.MULTISHOT && (drains || inChain)) {
                continue;
            }
            if (k == Kind.CANCEL && nextUd <= 2) {
                continue;
            }
            if (k == Kind.FILE_WRITE && nextSlot >= FILE_SLOTS) {
                continue;
            }
            return k;
        }
    }

    void prep(IoUring ring, Op op, int file, int[][] readPipes, int[] writePipe, int[] pollPipe, Arena arena) {
        Sqe sqe = ConformanceSupport.sqe(ring);
        switch (op.kind()) {
            case NOP -> sqe.prepNop();
            case TIMEOUT -> sqe.prepTimeout(op.nanos(), op.count(), 0);
            case PIPE_READ -> sqe.prepRead(readPipes[op.pipe()][0], arena.allocate(op.len()), -1);
            case PIPE_WRITE -> sqe.prepWrite(writePipe[1], ConformanceSupport.segment(arena,
                    "w".repeat(op.len())), -1);
            case FILE_READ -> sqe.prepRead(file, arena.allocate(SLOT), (long) SLOT * op.slot());
            case FILE_WRITE -> sqe.prepWrite(file, pattern(arena, op.ud()), (long) SLOT * op.slot());
            case MULTISHOT -> sqe.prepPollMultishot(pollPipe[0], Poll.IN);
            case CANCEL -> sqe.prepCancel(op.target(), 0);
        }
        sqe.userData(op.ud()).flags(op.flags());
    }

    static MemorySegment pattern(Arena arena, long ud) {
        MemorySegment seg = arena.allocate(SLOT);
        for (int i = 0; i < SLOT; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, (byte) (1 + (ud * 31 + i) % 250));
        }
        return seg;
    }

    void record(long ud, int res, int flags) {
        cqeIndexes.computeIfAbsent(ud, k -> new ArrayList<>()).add(log.size());
        log.add(new Completion(ud, res, flags));
    }

    void reapReady(IoUring ring) {
        ring.forEachCqe(this::record);
    }

    boolean hasFinal(Op op) {
        List<Integer> idx = cqeIndexes.get(op.ud());
        return idx != null && (log.get(idx.get(idx.size() - 1)).flags() & CqeFlags.MORE) == 0;
    }

    /** A final CQE is due: not a skipped NOP, not a multishot poll before its cancel was submitted. */
    boolean mustPost(Op op) {
        return !op.skips() && (op.kind() != Kind.MULTISHOT || multishotsCancelled);
    }

    /** Waits (bounded) until every SQE that must post has its final CQE. */
    void awaitFinals(IoUring ring) {
        long deadline = System.nanoTime() + ConformanceSupport.WAIT.toNanos();
        while (true) {
            boolean all = ops.stream().allMatch(op -> !mustPost(op) || hasFinal(op));
            if (all) {
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                List<Op> missing = ops.stream().filter(op -> mustPost(op) && !hasFinal(op)).toList();
                fail(label + ": no final CQE for " + missing + context());
            }
            Cqe c = ring.waitCqe(java.time.Duration.ofNanos(Math.min(left, 100 * MS)));
            if (c != null) {
                record(c.userData(), c.res(), c.flags());
                ring.cqeSeen(c);
            }
        }
    }

    String context() {
        StringBuilder s = new StringBuilder("\n  batches:");
        for (List<Op> b : batches) {
            s.append("\n    ").append(b);
        }
        return s.append("\n  CQEs: ").append(log).toString();
    }

    /** The final CQE of {@code op} (null if it posted none) and its index in the CQ stream. */
    Completion finalOf(Op op) {
        List<Integer> idx = cqeIndexes.get(op.ud());
        return idx == null ? null : log.get(idx.get(idx.size() - 1));
    }

    int finalIndex(Op op) {
        List<Integer> idx = cqeIndexes.get(op.ud());
        return idx == null ? -1 : idx.get(idx.size() - 1);
    }

    boolean failed(Op op, Completion c) {
        if (c == null) {
            return false;
        }
        if (c.res() < 0) {
            return true;
        }
        return switch (op.kind()) {
            case PIPE_READ, PIPE_WRITE, FILE_READ, FILE_WRITE -> c.res() != op.len();
            default -> false;
        };
    }

    void check() {
        String ctx = context();
        // Exactly one final CQE each; results an operation can give.
        for (Op op : ops) {
            List<Integer> idx = cqeIndexes.getOrDefault(op.ud(), List.of());
            if (op.skips()) {
                assertTrue(idx.isEmpty() || idx.size() == 1 && log.get(idx.get(0)).res() == -Errno.ECANCELED,
                        label + ": a skipped NOP posts only when cancelled: " + op + ctx);
                continue;
            }
            assertTrue(!idx.isEmpty(), label + ": no CQE for " + op + ctx);
            for (int k = 0; k < idx.size(); k++) {
                Completion c = log.get(idx.get(k));
                boolean last = k == idx.size() - 1;
                assertEquals(!last, (c.flags() & CqeFlags.MORE) != 0, label + ": MORE on all but the final CQE of "
                        + op + ctx);
                assertTrue(possible(op, c, last), label + ": impossible " + c + " for " + op + ctx);
            }
        }
        // Chains: in order; after a failure (not hardlinked) the rest is -ECANCELED.
        for (List<Op> batch : batches) {
            for (List<Op> chain : chains(batch)) {
                boolean broken = false;
                int prevIndex = -1;
                for (Op op : chain) {
                    Completion c = finalOf(op);
                    if (broken) {
                        assertEquals(-Errno.ECANCELED, c == null ? 0 : c.res(),
                                label + ": " + op + " ran after its chain failed, chain " + chain + ctx);
                    }
                    if (c != null) {
                        int at = finalIndex(op);
                        assertTrue(at > prevIndex,
                                label + ": chain out of order at " + op + ", chain " + chain + ctx);
                        prevIndex = at;
                    }
                    if (!broken && failed(op, c) && (op.flags() & SqeFlags.IO_HARDLINK) == 0) {
                        broken = true;
                    }
                }
            }
        }
        // Drains: after everything before, before everything after (on this ring).
        for (int i = 0; i < ops.size(); i++) {
            Op d = ops.get(i);
            if ((d.flags() & SqeFlags.IO_DRAIN) == 0) {
                continue;
            }
            List<Op> chain = chainOf(d);
            Op head = chain.get(0);
            int headAt = ops.indexOf(head);
            int chainEnd = ops.indexOf(chain.get(chain.size() - 1));
            int dAt = finalIndex(d);
            for (int j = 0; j < ops.size(); j++) {
                Op o = ops.get(j);
                int oAt = finalIndex(o);
                if (oAt < 0 || dAt < 0) {
                    continue;
                }
                if (j < headAt) {
                    assertTrue(oAt < dAt, label + ": drain " + d + " completed before the earlier " + o + ctx);
                } else if (j > chainEnd) {
                    assertTrue(oAt > dAt, label + ": " + o + " completed before the earlier drain " + d + ctx);
                }
            }
        }
        // A successful cancel found its target, which ended -ECANCELED (or -EINTR, interrupted).
        for (Op op : ops) {
            Completion c = finalOf(op);
            if (op.kind() == Kind.CANCEL && c != null && c.res() == 0) {
                Completion t = finalOf(byUd.get(op.target()));
                assertNotNull(t, label + ": cancel " + op + " succeeded but its target posted nothing" + ctx);
                assertTrue(t.res() == -Errno.ECANCELED || t.res() == -Errno.EINTR,
                        label + ": cancel " + op + " succeeded but its target ended " + t + ctx);
            }
        }
    }

    boolean possible(Op op, Completion c, boolean last) {
        int r = c.res();
        if (!last) {
            return op.kind() == Kind.MULTISHOT && r == Poll.IN;
        }
        boolean cancelled = r == -Errno.ECANCELED;
        return switch (op.kind()) {
            case NOP -> r == 0 || cancelled;
            case TIMEOUT -> r == -Errno.ETIME || r == 0 || cancelled;
            case PIPE_READ -> r >= 1 && r <= op.len() || cancelled;
            case PIPE_WRITE -> r == op.len() || cancelled;
            case FILE_READ, FILE_WRITE -> r == SLOT || cancelled || r == -Errno.EINTR;
            case MULTISHOT -> cancelled;
            case CANCEL -> r == 0 || r == -Errno.ENOENT || r == -Errno.EALREADY || cancelled;
        };
    }

    /** The chains of a batch: runs of SQEs joined by LINK/HARDLINK; a single SQE is a chain of one. */
    static List<List<Op>> chains(List<Op> batch) {
        List<List<Op>> out = new ArrayList<>();
        List<Op> cur = new ArrayList<>();
        for (Op op : batch) {
            cur.add(op);
            if (!op.links()) {
                out.add(cur);
                cur = new ArrayList<>();
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur);
        }
        return out;
    }

    List<Op> chainOf(Op op) {
        for (List<Op> batch : batches) {
            for (List<Op> chain : chains(batch)) {
                if (chain.contains(op)) {
                    return chain;
                }
            }
        }
        throw new AssertionError("no chain holds " + op);
    }

    /** The file holds every write that succeeded and nothing of those cancelled; the pipe all pipe writes. */
    void checkWrites(int file, int[] writePipe, Arena arena) {
        byte[] zero = new byte[SLOT];
        for (Op op : ops) {
            if (op.kind() != Kind.FILE_WRITE) {
                continue;
            }
            Completion c = finalOf(op);
            byte[] got = readSlot(file, op.slot());
            if (c.res() == SLOT) {
                byte[] want = pattern(arena, op.ud()).toArray(ValueLayout.JAVA_BYTE);
                assertTrue(Arrays.equals(want, got), label + ": write " + op + " is not in the file");
            } else if (c.res() == -Errno.ECANCELED) {
                assertTrue(Arrays.equals(zero, got), label + ": cancelled write " + op + " wrote");
            }
        }
        int written = ops.stream().filter(o -> o.kind() == Kind.PIPE_WRITE).map(this::finalOf)
                .mapToInt(c -> Math.max(0, c.res())).sum();
        int read = 0;
        while (read < written) {
            byte[] chunk = new byte[written - read];
            int n = Fds.read(writePipe[0], chunk);
            for (int i = 0; i < n; i++) {
                assertEquals('w', chunk[i], label + ": pipe data");
            }
            read += n;
        }
        Fds.write(writePipe[1], ascii("M"));
        byte[] marker = new byte[1];
        Fds.read(writePipe[0], marker);
        assertEquals('M', marker[0], label + ": a cancelled pipe write wrote");
    }

    static byte[] readSlot(int fd, int slot) {
        try {
            // A plain blocking pread through a fresh descriptor keeps the check independent of the ring.
            byte[] out = new byte[SLOT];
            Path self = Path.of("/proc/self/fd/" + fd).toRealPath();
            try (var ch = java.nio.channels.FileChannel.open(self)) {
                ch.read(java.nio.ByteBuffer.wrap(out), (long) SLOT * slot);
            }
            return out;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}

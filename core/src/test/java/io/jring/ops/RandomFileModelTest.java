package io.jring.ops;

import static io.jring.ops.FileOps.ALIGN;
import static io.jring.ops.FileOps.contents;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors the file operations as a whole ({@link RwOp} and its subclasses; in the spirit of
 * fsx and liburing's test/rw_merge_test): 1000 random reads and writes (single, vectored,
 * fixed-buffer; plain or fixed file; buffered or O_DIRECT; inline or ASYNC) in batches,
 * checked against an in-memory model of the file. Within a batch no two requests touch the
 * same bytes unless both only read (and a read reaching past EOF is taken to reach to
 * infinity, since a concurrent extending write would change its length), so the outcome does
 * not depend on the order in which the engine runs them. Fixed seed; replay a failure with
 * {@code -Djring.seed=<seed>}.
 */
@Timeout(30)
class RandomFileModelTest {
    static final int MAX_SIZE = 256 * 1024;
    static final int MAX_LEN = 16 * 1024;
    static final int MAX_BATCH = 32;
    static final int OPS = 1000;
    static final long DEFAULT_SEED = 0x5EED_F11EL;

    enum Kind {
        READ(false), WRITE(true), READV(false), WRITEV(true), READ_FIXED(false), WRITE_FIXED(true);

        final boolean write;

        Kind(boolean write) {
            this.write = write;
        }
    }

    /** One request of a batch: its shape, its buffers, and what it must produce. */
    static final class Op {
        final int index;
        final Kind kind;
        final boolean async;
        final boolean direct;
        final boolean fixedFile;
        final long off;
        final int len;
        /** Byte range it depends on or changes; a read past EOF extends to Long.MAX_VALUE. */
        long from;
        long to;
        MemorySegment[] segs;
        MemorySegment single;
        int expectedRes;
        byte[] expectedData;

        Op(int index, Kind kind, boolean async, boolean direct, boolean fixedFile, long off, int len) {
            this.index = index;
            this.kind = kind;
            this.async = async;
            this.direct = direct;
            this.fixedFile = fixedFile;
            this.off = off;
            this.len = len;
        }

        @Override
        public String toString() {
            return "op #" + index + " " + kind + (async ? " ASYNC" : "") + (direct ? " O_DIRECT" : "")
                    + (fixedFile ? " FIXED_FILE" : "") + " off=" + off + " len=" + len
                    + (segs != null ? " segments=" + segs.length : "");
        }
    }

    @TempDir Path dir;
    /** The file, buffered (fixed slot 0) and O_DIRECT (fixed slot 1). */
    int bufferedFd;
    int directFd;

    @ParameterizedTest(name = "setupFlags={0}")
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void randomReadsAndWritesMatchTheReferenceModel(int setupFlags) throws Exception {
        long seed = Long.getLong("jring.seed", DEFAULT_SEED);
        String replay = "seed=" + seed + " (replay with -Djring.seed=" + seed + ")";
        SplittableRandom rnd = new SplittableRandom(seed);
        Path p = dir.resolve("model");
        byte[] model = new byte[MAX_SIZE];
        int[] size = {0};
        int fd = bufferedFd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        int dfd = directFd = Fds.open(p, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.builder().entries(64).flags(setupFlags).build();
                Arena arena = Arena.ofShared()) {
            MemorySegment region = arena.allocate((long) MAX_BATCH * MAX_LEN, ALIGN);
            ring.registerBuffers(new MemorySegment[] {region});
            ring.registerFiles(new int[] {fd, dfd});
            List<Op> batch = new ArrayList<>();
            int batchStartSize = 0;
            int batches = 0;
            Arena batchArena = Arena.ofConfined();
            for (int i = 0; i < OPS; i++) {
                Op op = shape(rnd, i, size[0]);
                rangeOf(op, batchStartSize);
                if (batch.size() == MAX_BATCH || conflicts(op, batch)) {
                    run(ring, batch, replay);
                    batches++;
                    batch.clear();
                    batchArena.close();
                    batchArena = Arena.ofConfined();
                    batchStartSize = size[0];
                    rangeOf(op, batchStartSize);
                }
                materialize(op, rnd, batch.size(), batchArena, region, model, size);
                batch.add(op);
            }
            run(ring, batch, replay);
            batches++;
            batchArena.close();

            byte[] onDisk = contents(p);
            assertEquals(size[0], onDisk.length, "file size, " + replay);
            assertArrayEquals(Arrays.copyOf(model, size[0]), onDisk, "file content after " + OPS + " ops in "
                    + batches + " batches, " + replay);
        } finally {
            Fds.close(dfd);
            Fds.close(fd);
        }
    }

    /** Chooses what the op does; offsets favour the existing file so reads mostly hit data. */
    private static Op shape(SplittableRandom rnd, int index, int size) {
        Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
        boolean async = rnd.nextBoolean();
        boolean direct = rnd.nextInt(4) == 0;
        boolean fixedFile = rnd.nextInt(4) == 0;
        int len = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(512) : 1 + rnd.nextInt(MAX_LEN);
        // Mostly inside the file; else up to 32 KiB past its end, so it grows gradually and
        // reads keep meeting EOF.
        long off = rnd.nextInt(10) < 7 ? rnd.nextInt(Math.max(size, 1)) : rnd.nextInt(Math.min(MAX_SIZE, size + 32 * 1024));
        if (direct) {
            off = off / ALIGN * ALIGN;
            len = (len + ALIGN - 1) / ALIGN * ALIGN;
        }
        if (off + len > MAX_SIZE) {
            off = MAX_SIZE - len;
        }
        return new Op(index, kind, async, direct, fixedFile, off, len);
    }

    private static void rangeOf(Op op, int batchStartSize) {
        op.from = op.off;
        op.to = !op.kind.write && op.off + op.len > batchStartSize ? Long.MAX_VALUE : op.off + op.len;
    }

    private static boolean conflicts(Op op, List<Op> batch) {
        for (Op o : batch) {
            if ((o.kind.write || op.kind.write) && o.from < op.to && op.from < o.to) {
                return true;
            }
        }
        return false;
    }

    /** Buffers, write data, the expected read result; applies a write to the model. */
    private static void materialize(Op op, SplittableRandom rnd, int slot, Arena batchArena, MemorySegment region,
            byte[] model, int[] size) {
        switch (op.kind) {
            case READ, WRITE -> op.single = op.direct ? batchArena.allocate(op.len, ALIGN) : batchArena.allocate(op.len);
            case READ_FIXED, WRITE_FIXED -> op.single = region.asSlice((long) slot * MAX_LEN, op.len);
            case READV, WRITEV -> op.segs = split(op, rnd, batchArena);
        }
        if (op.kind.write) {
            byte[] data = new byte[op.len];
            rnd.nextBytes(data);
            scatter(op, data);
            System.arraycopy(data, 0, model, (int) op.off, op.len);
            size[0] = Math.max(size[0], (int) op.off + op.len);
            op.expectedRes = op.len;
        } else {
            byte[] junk = new byte[op.len];
            Arrays.fill(junk, (byte) 0xEE);
            scatter(op, junk);
            op.expectedRes = (int) Math.clamp(size[0] - op.off, 0, op.len);
            op.expectedData = Arrays.copyOfRange(model, (int) op.off, (int) op.off + op.expectedRes);
        }
    }

    /** 1..8 segments (some may be empty when buffered; whole pages when O_DIRECT). */
    private static MemorySegment[] split(Op op, SplittableRandom rnd, Arena a) {
        int unit = op.direct ? ALIGN : 1;
        int units = op.len / unit;
        int k = 1 + rnd.nextInt(Math.min(8, op.direct ? units : 8));
        int[] cuts = new int[k + 1];
        cuts[k] = units;
        for (int i = 1; i < k; i++) {
            cuts[i] = op.direct ? 1 + rnd.nextInt(units - 1) : rnd.nextInt(units + 1);
        }
        Arrays.sort(cuts, 1, k);
        if (op.direct) {
            // Distinct cuts, so no segment is empty.
            cuts = Arrays.stream(cuts).distinct().toArray();
        }
        MemorySegment[] segs = new MemorySegment[cuts.length - 1];
        for (int i = 0; i < segs.length; i++) {
            long n = (long) (cuts[i + 1] - cuts[i]) * unit;
            segs[i] = op.direct ? a.allocate(n, ALIGN) : a.allocate(Math.max(n, 1)).asSlice(0, n);
        }
        return segs;
    }

    private static void scatter(Op op, byte[] data) {
        if (op.single != null) {
            MemorySegment.copy(data, 0, op.single, JAVA_BYTE, 0, data.length);
            return;
        }
        int pos = 0;
        for (MemorySegment s : op.segs) {
            MemorySegment.copy(data, pos, s, JAVA_BYTE, 0, (int) s.byteSize());
            pos += (int) s.byteSize();
        }
    }

    private static byte[] gather(Op op, int n) {
        byte[] out = new byte[n];
        if (op.single != null) {
            MemorySegment.copy(op.single, JAVA_BYTE, 0, out, 0, n);
            return out;
        }
        int pos = 0;
        for (MemorySegment s : op.segs) {
            int take = (int) Math.min(s.byteSize(), n - pos);
            MemorySegment.copy(s, JAVA_BYTE, 0, out, pos, take);
            pos += take;
            if (pos == n) {
                break;
            }
        }
        return out;
    }

    private void run(IoUring ring, List<Op> batch, String replay) {
        if (batch.isEmpty()) {
            return;
        }
        for (Op op : batch) {
            Sqe sqe = ring.getSqe();
            assertNotNull(sqe, "SQ full, " + replay);
            int realFd = op.fixedFile ? (op.direct ? 1 : 0) : (op.direct ? directFd : bufferedFd);
            switch (op.kind) {
                case READ -> sqe.prepRead(realFd, op.single, op.off);
                case WRITE -> sqe.prepWrite(realFd, op.single, op.off);
                case READV -> sqe.prepReadv(realFd, op.segs, op.off);
                case WRITEV -> sqe.prepWritev(realFd, op.segs, op.off);
                case READ_FIXED -> sqe.prepReadFixed(realFd, op.single, op.off, 0);
                case WRITE_FIXED -> sqe.prepWriteFixed(realFd, op.single, op.off, 0);
            }
            sqe.userData(op.index).flags((op.async ? SqeFlags.ASYNC : 0) | (op.fixedFile ? SqeFlags.FIXED_FILE : 0));
        }
        assertEquals(batch.size(), ring.submit(), replay);
        Map<Long, Completion> got = FileOps.reapByUserData(ring, batch.size());
        for (Op op : batch) {
            Completion c = got.get((long) op.index);
            assertEquals(FileOps.cqe(op.index, op.expectedRes), c, op + ", " + replay);
            if (!op.kind.write) {
                assertArrayEquals(op.expectedData, gather(op, op.expectedRes), "data of " + op + ", " + replay);
            }
        }
    }

}

package io.jring.net;

import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.BufRing;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.net.NetTestSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ring-mapped provided buffers (liburing test/buf-ring.c; kernel io_uring/kbuf.c,
 * IORING_REGISTER_PBUF_RING): registration and its errors, the shared layout (16-byte
 * {@code io_uring_buf} slots, the tail in slot 0's {@code resv}), buffers taken from the
 * head in ring order and reported with their ids, the head moving only when a buffer is
 * consumed, incremental consumption, and BufRing's liburing-style helpers. Checked on 6.18
 * (the cross-check's BufRingScenarios run the same rules on the kernel).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BufRingTest {
    private static final int G = 3;
    private static final int LEN = 32;

    static java.util.stream.Stream<Integer> ringKinds() {
        return NetTestSupport.ringKinds();
    }

    private static void recv(IoUring ring, int fd, long ud) {
        sqe(ring).prepRecv(fd, null, 0).bufferSelect(G).userData(ud);
    }

    private static int errnoOf(Runnable r) {
        return assertThrows(IoUringException.class, r::run).errno();
    }

    @Test
    void bufRingHelpersFollowLiburingsLayout() {
        assertEquals(7, BufRing.mask(8));
        assertEquals(4096, BufRing.size(8));
        assertEquals(8192, BufRing.size(512));
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            MemorySegment buf = arena.allocate(100);
            br.add(buf, 0xBEEF, 0);
            br.add(buf.address() + 50, 50, 7, 1);
            assertEquals(0, br.available(), "nothing is published before advance");
            br.advance(2);
            MemorySegment m = br.memory();
            assertEquals(buf.address(), m.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(100, m.get(ValueLayout.JAVA_INT, 8));
            assertEquals((short) 0xBEEF, m.get(ValueLayout.JAVA_SHORT, 12));
            assertEquals(2, m.get(ValueLayout.JAVA_SHORT, 14), "the tail lives in slot 0's resv");
            assertEquals(buf.address() + 50, m.get(ValueLayout.JAVA_LONG, 16));
            assertEquals(7, m.get(ValueLayout.JAVA_SHORT, 28));
            assertEquals(2, br.available());
            assertEquals(0, ring.bufRingHead(G));
            assertEquals(7, br.mask());
            assertEquals(G, br.groupId());
        }
    }

    @Test
    void registerRefusesBadSizesFlagsAndMemoryWithLinuxErrnos() {
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(8192, 4096);
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(page, 0, G, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(page, 3, G, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(page, 65536, G, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(page, 8, G, 4)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(page.asSlice(8), 8, G, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBufRing(MemorySegment.ofArray(new byte[4096]), 8, G,
                    0)), "a heap segment");
            assertEquals(Errno.EFAULT, errnoOf(() -> ring.registerBufRing(null, 8, G, 0)));
            assertEquals(Errno.EFAULT, errnoOf(() -> ring.registerBufRing(page, 1024, G, 0)), "16 KiB needed, 8 there");
            IoUringException e = assertThrows(IoUringException.class, () -> ring.registerBufRing(page, 3, G, 0));
            assertTrue(e.getMessage().contains("power of two"), e.getMessage());
            assertEquals(Errno.ENOENT, errnoOf(() -> ring.bufRingHead(G)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.mapBufRing(G)));
        }
    }

    @Test
    void aGroupRegisteredTwiceIsEexistAndUnregisteredTwiceEnoent() {
        try (IoUring ring = IoUring.open(8)) {
            BufRing.setup(ring, 8, G, 0);
            assertEquals(Errno.EEXIST, errnoOf(() -> BufRing.setup(ring, 8, G, 0)));
            ring.unregisterBufRing(G);
            assertEquals(Errno.ENOENT, errnoOf(() -> ring.unregisterBufRing(G)));
            BufRing.setup(ring, 16, G, 0).close();   // the id is free again
        }
    }

    @Test
    void aGroupWithProvidedBuffersCannotGetARingAndARingRefusesProvideBuffers() {
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepProvideBuffers(arena.allocate(64), 32, 2, G, 0).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            assertEquals(Errno.EEXIST, errnoOf(() -> BufRing.setup(ring, 8, G, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.unregisterBufRing(G)));
            sqe(ring).prepRemoveBuffers(2, G).userData(2);
            assertEquals(cqe(2, 2), submitAndNext(ring));
            try (BufRing br = BufRing.setup(ring, 8, G, 0)) {   // an emptied group is replaced
                sqe(ring).prepProvideBuffers(arena.allocate(64), 32, 2, G, 0).userData(3);
                assertEquals(cqe(3, -Errno.EINVAL), submitAndNext(ring));
                sqe(ring).prepRemoveBuffers(1, G).userData(4);
                assertEquals(cqe(4, -Errno.EINVAL), submitAndNext(ring));
            }
        }
    }

    /** test_running: buffers taken in ring order, each CQE naming its buffer, the ring wrapping around as they are re-added. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("ringKinds")
    void recvsTakeRingBuffersInOrderAndTheRingWrapsAsTheyAreReAdded(int setup) {
        int entries = 4;
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, entries, G, 0)) {
            int[] pair = fds.add(Fds.socketPair());
            MemorySegment region = arena.allocate((long) entries * LEN);
            for (int i = 0; i < entries; i++) {
                br.add(region.asSlice((long) i * LEN, LEN), 100 + i, i);
            }
            br.advance(entries);
            for (int msg = 0; msg < 3 * entries; msg++) {
                String data = "message-" + msg;
                Fds.write(pair[1], ascii(data));
                recv(ring, pair[0], msg);
                Completion c = submitAndNext(ring);
                int bid = 100 + msg % entries;
                assertEquals(cqe(msg, data.length(), buffer(bid)), c);
                MemorySegment used = region.asSlice((long) (bid - 100) * LEN, LEN);
                assertEquals(data, ascii(used, data.length()));
                assertEquals((msg + 1) & 0xFFFF, ring.bufRingHead(G));
                br.add(used, bid, 0);   // the buffer is the application's again: back into the ring
                br.advance(1);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("ringKinds")
    void anEmptyRingIsEnobufsAndARecvThatWaitsConsumesNothing(int setup) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            int[] pair = fds.add(Fds.socketPair());
            recv(ring, pair[0], 1);
            assertEquals(cqe(1, -Errno.ENOBUFS), submitAndNext(ring));
            br.add(arena.allocate(LEN), 5, 0);
            br.advance(1);
            recv(ring, pair[0], 2);
            ring.submit();
            NetTestSupport.assertQuiet(ring);
            assertEquals(0, ring.bufRingHead(G), "a waiting recv holds no ring buffer");
            assertEquals(1, br.available());
            Fds.write(pair[1], ascii("late"));
            assertEquals(cqe(2, 4, buffer(5)), next(ring));
            assertEquals(0, br.available());
        }
    }

    @Test
    void incrementalBufferCollectsSeveralRecvsUntilItIsUsedUp() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, BufRing.INC)) {
            int[] pair = fds.add(Fds.socketPair());
            MemorySegment buf = arena.allocate(8);
            br.add(buf, 9, 0);
            br.advance(1);
            Fds.write(pair[1], ascii("abc"));
            recv(ring, pair[0], 1);
            assertEquals(cqe(1, 3, buffer(9) | CqeFlags.BUF_MORE), submitAndNext(ring));
            Fds.write(pair[1], ascii("defgh"));
            recv(ring, pair[0], 2);
            assertEquals(cqe(2, 5, buffer(9)), submitAndNext(ring), "the buffer is full: no BUF_MORE");
            assertEquals("abcdefgh", ascii(buf, 8), "each recv lands after the previous one in the same buffer");
            assertEquals(1, ring.bufRingHead(G));
        }
    }

    @Test
    void mmapRingIsTheRingsMemoryAndIsFreedWithIt() {
        MemorySegment m;
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            BufRing br = BufRing.setup(ring, 16, G, BufRing.MMAP);
            m = ring.mapBufRing(G);
            assertEquals(16 * BufRing.ENTRY_SIZE, m.byteSize());
            assertEquals(0, m.address() & 4095, "page-aligned");
            int[] pair = fds.add(Fds.socketPair());
            br.add(arena.allocate(LEN), 1, 0);
            br.advance(1);
            Fds.write(pair[1], ascii("hi"));
            recv(ring, pair[0], 1);
            assertEquals(cqe(1, 2, buffer(1)), submitAndNext(ring));
        }
        assertFalse(m.scope().isAlive(), "closing the ring frees the memory it allocated");
    }

    @Test
    void closeUnregistersAndLeavesRegisteredMemoryToItsOwner() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            MemorySegment mine = arena.allocate(4096, 4096);
            BufRing br = BufRing.register(ring, mine, 8, G, 0);
            br.close();
            br.close();
            assertTrue(mine.scope().isAlive());
            int[] pair = fds.add(Fds.socketPair());
            Fds.write(pair[1], ascii("x"));
            recv(ring, pair[0], 1);
            assertEquals(cqe(1, -Errno.ENOBUFS), submitAndNext(ring), "no group any more");
        }
    }

    @Test
    void readFromAFileTakesARingBufferAtOnce(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("data");
        Files.writeString(file, "0123456789");
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            int fd = fds.add(Fds.open(file, OpenFlags.RDONLY, 0));
            MemorySegment buf = arena.allocate(LEN);
            br.add(buf, 4, 0);
            br.advance(1);
            sqe(ring).prepRead(fd, null, 2).bufferSelect(G).userData(1);
            assertEquals(cqe(1, 8, buffer(4)), submitAndNext(ring));
            assertEquals("23456789", ascii(buf, 8));
        }
    }

    @Test
    void cqAdvanceConsumesCqesAndPublishesTheirBuffersAgain() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 4, G, 0)) {
            int[] pair = fds.add(Fds.socketPair());
            MemorySegment region = arena.allocate(2L * LEN);
            br.add(region.asSlice(0, LEN), 0, 0);
            br.add(region.asSlice(LEN, LEN), 1, 1);
            br.advance(2);
            for (int round = 0; round < 3; round++) {
                Fds.write(pair[1], ascii("a"));
                recv(ring, pair[0], 1);
                ring.submit();
                Fds.write(pair[1], ascii("b"));
                recv(ring, pair[0], 2);
                ring.submitAndWait(2);
                assertEquals(2, ring.cqReady());
                br.add(region.asSlice(0, LEN), 0, 0);
                br.add(region.asSlice(LEN, LEN), 1, 1);
                br.cqAdvance(2);
                assertEquals(0, ring.cqReady());
                assertEquals(2, br.available());
            }
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.cqAdvance(1)));
        }
    }
}

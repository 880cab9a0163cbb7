package io.jring.ops;

import static io.jring.ops.FileOps.buffer;
import static io.jring.ops.FileOps.bytes;
import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.descriptorsOf;
import static io.jring.ops.FileOps.file;
import static io.jring.ops.FileOps.one;
import static io.jring.ops.FileOps.pattern;
import static io.jring.ops.FileOps.range;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors the fixed-slot paths of {@link CloseOp} and {@link OpenatOp} (the SQE's file index,
 * liburing's io_uring_prep_close_direct / io_uring_prep_openat_direct: slot + 1, or
 * IORING_FILE_INDEX_ALLOC; liburing test/open-direct-pick.c, test/fixed-link.c). Every
 * expected result was checked against Linux 6.18 with liburing on this machine.
 */
@Timeout(20)
class FixedSlotOpenCloseTest extends RingAndArenaFixture {
    /** IORING_FILE_INDEX_ALLOC, as the raw file index. */
    static final int ALLOC = 0xFFFFFFFF;
    static final int O_CLOEXEC = 02000000;
    static final int DEFER = io.jring.testkit.RingTestSupport.DEFER;

    Path a;
    Path b;
    byte[] dataA;
    byte[] dataB;
    final Descriptors fds = new Descriptors();

    FixedSlotOpenCloseTest() {
        super(16);
    }

    @BeforeEach
    void files() throws Exception {
        dataA = pattern(1, 64);
        dataB = pattern(2, 64);
        a = file(dir, "a", dataA);
        b = file(dir, "b", dataB);
    }

    @AfterEach
    void closeDescriptors() {
        fds.close();
    }

    private static Consumer<Sqe> closeSlot(int slot, long ud) {
        return s -> s.prepClose(0).fileIndex(slot + 1).userData(ud);
    }

    private Consumer<Sqe> openInto(Path p, int fileIndex, long ud) {
        return s -> s.prepOpenat(Fds.AT_FDCWD, p.toString(), OpenFlags.RDONLY, 0).fileIndex(fileIndex).userData(ud);
    }

    /** READ of 8 bytes through fixed slot {@code slot}; its CQE. */
    private Completion readSlot(int slot, MemorySegment buf, long ud) {
        return one(ring, s -> s.prepRead(slot, buf, 0).flags(SqeFlags.FIXED_FILE).userData(ud));
    }

    // ------------------------------------------------------------------ close of a slot

    @Test
    void closeOfASlotEmptiesItAndReleasesTheTablesDescriptor() throws Exception {
        Path stdin = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
        int fd = fds.add(Fds.open(a, OpenFlags.RDONLY, 0));
        ring.registerFiles(new int[] {fd, -1});
        assertEquals(2, descriptorsOf(a), "ours and the table's");
        MemorySegment buf = buffer(arena, 8, 0);
        assertEquals(cqe(1, 8), readSlot(0, buf, 1));

        assertEquals(cqe(2, 0), one(ring, closeSlot(0, 2)));
        assertEquals(1, descriptorsOf(a), "the table's descriptor is closed");
        assertEquals(stdin, Files.readSymbolicLink(Path.of("/proc/self/fd/0")), "fd 0 (the SQE's fd field) untouched");
        assertEquals(cqe(3, -Errno.EBADF), readSlot(0, buf, 3));
        assertEquals(cqe(4, -Errno.EBADF), one(ring, closeSlot(0, 4)), "closed twice");
        assertEquals(cqe(5, 8), one(ring, s -> s.prepRead(fd, buf, 0).userData(5)), "our own descriptor still works");
    }

    @Test
    void closeOfASlotFailsAsLinux() throws Exception {
        assertEquals(cqe(1, -Errno.ENXIO), one(ring, closeSlot(0, 1)), "no table");
        int fd = fds.add(Fds.open(a, OpenFlags.RDONLY, 0));
        ring.registerFiles(new int[] {fd, -1, fd, -1});
        assertEquals(cqe(2, -Errno.EINVAL), one(ring, closeSlot(4, 2)), "past the table");
        assertEquals(cqe(3, -Errno.EINVAL), one(ring, closeSlot(100, 3)), "far past the table");
        assertEquals(cqe(4, -Errno.EINVAL), one(ring, s -> s.prepClose(0).fileIndex(ALLOC).userData(4)), "ALLOC is no slot");
        assertEquals(cqe(5, -Errno.EBADF), one(ring, closeSlot(1, 5)), "empty slot");
        assertEquals(cqe(6, -Errno.EBADF), one(ring, closeSlot(0, 6).andThen(s -> s.flags(SqeFlags.FIXED_FILE))),
                "FIXED_FILE close");
        assertEquals(cqe(7, -Errno.EINVAL), one(ring, s -> s.prepClose(fd).fileIndex(1).userData(7)), "a descriptor and a slot");
        assertEquals(3, descriptorsOf(a), "nothing was closed");
    }

    static Stream<Arguments> strayFields() {
        return Stream.of(
                Arguments.of("off", (Consumer<Sqe>) s -> s.off(1)),
                Arguments.of("addr2", (Consumer<Sqe>) s -> s.addr2(1)),
                Arguments.of("len", (Consumer<Sqe>) s -> s.len(1)),
                Arguments.of("op flags", (Consumer<Sqe>) s -> s.opFlags(1)),
                Arguments.of("buf index", (Consumer<Sqe>) s -> s.bufIndex(3)),
                Arguments.of("buf group", (Consumer<Sqe>) s -> s.bufferGroup(3)),
                Arguments.of("ioprio", (Consumer<Sqe>) s -> s.ioprio(1)));
    }

    /** As Linux's io_close_prep (and io_init_req for ioprio), for a descriptor and for a slot alike. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("strayFields")
    void closeWithAStrayFieldIsEinvalAndClosesNothing(String field, Consumer<Sqe> stray) throws Exception {
        int fd = fds.add(Fds.open(a, OpenFlags.RDONLY, 0));
        ring.registerFiles(new int[] {fd});
        assertEquals(cqe(1, -Errno.EINVAL), one(ring, s -> stray.accept(s.prepClose(fd).userData(1))));
        assertEquals(cqe(2, -Errno.EINVAL), one(ring, s -> stray.accept(s.prepClose(0).fileIndex(1).userData(2))));
        assertEquals(2, descriptorsOf(a));
    }

    /** addr3 is not looked at by CLOSE (Linux 6.18: res 0, the file closed). */
    @Test
    void closeIgnoresAddr3() throws Exception {
        int fd = Fds.open(a, OpenFlags.RDONLY, 0);
        ring.registerFiles(new int[] {fd});
        assertEquals(cqe(1, 0), one(ring, s -> s.prepClose(fd).addr3(1).userData(1)));
        assertEquals(cqe(2, 0), one(ring, s -> s.prepClose(0).fileIndex(1).addr3(1).userData(2)));
        assertEquals(0, descriptorsOf(a));
    }

    /** Linux takes the slot out at issue, inline: a later SQE of the same submit finds it empty. */
    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, DEFER})
    void closeOfASlotTakesEffectForTheNextSqeOfTheSameSubmit(int setup) throws Exception {
        int fd = fds.add(Fds.open(a, OpenFlags.RDONLY, 0));
        try (IoUring r = IoUring.builder().entries(8).flags(setup).build()) {
            r.registerFiles(new int[] {fd, fd});
            MemorySegment buf = buffer(arena, 8, 0);
            r.getSqe().prepClose(0).fileIndex(2).userData(1);
            r.getSqe().prepRead(1, buf, 0).flags(SqeFlags.FIXED_FILE).userData(2);
            r.getSqe().prepClose(0).fileIndex(1).flags(SqeFlags.ASYNC).userData(3);
            assertEquals(3, r.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.EBADF), cqe(3, 0)), RingTestSupport.reap(r, 3));
        }
        assertEquals(1, descriptorsOf(a));
    }

    /** As Linux, a request already using the slot's file keeps it until it completes. */
    @Test
    void closeOfASlotInUseLetsTheRequestFinish() {
        int[] pipe = fds.pipe();
        ring.registerFiles(new int[] {pipe[0]});
        MemorySegment buf = buffer(arena, 5, 0);
        ring.getSqe().prepRead(0, buf, 0).flags(SqeFlags.FIXED_FILE).userData(1);
        assertEquals(1, ring.submit());
        assertEquals(cqe(2, 0), one(ring, closeSlot(0, 2)));
        Fds.write(pipe[1], "hello".getBytes());
        assertEquals(List.of(cqe(1, 5)), RingTestSupport.reap(ring, 1));
        assertEquals("hello", new String(bytes(buf)));
    }

    // ------------------------------------------------------------------ open into a slot

    @Test
    void openIntoASlotReturnsZeroAndTheTableOwnsTheOnlyDescriptor() throws Exception {
        ring.registerFiles(new int[] {-1, -1});
        assertEquals(cqe(1, 0), one(ring, openInto(a, 2, 1)));
        assertEquals(1, descriptorsOf(a), "the table's, and no other");
        MemorySegment buf = buffer(arena, 8, 0);
        assertEquals(cqe(2, 8), readSlot(1, buf, 2));
        assertArrayEquals(range(dataA, 0, 8), bytes(buf));
        assertEquals(cqe(3, -Errno.EBADF), readSlot(0, buf, 3), "the other slot is still empty");
        ring.unregisterFiles();
        assertEquals(0, descriptorsOf(a));
    }

    @Test
    void aLinkedFixedReadSeesTheSlotAnOpenBeforeItFilled() throws Exception {
        // Linux looks fixed files up when it issues a request: a chain member runs after
        // the open before it finished (liburing test/fixed-link.c; 6.18: 0, then 5).
        ring.registerFiles(new int[] {-1});
        MemorySegment buf = buffer(arena, 5, 0);
        ring.getSqe().prepOpenat(Fds.AT_FDCWD, a.toString(), OpenFlags.RDONLY, 0).fileIndex(1).userData(1)
                .flags(SqeFlags.IO_LINK);
        ring.getSqe().prepRead(0, buf, 0).flags(SqeFlags.FIXED_FILE).userData(2);
        assertEquals(2, ring.submit());
        assertEquals(List.of(cqe(1, 0), cqe(2, 5)), RingTestSupport.reap(ring, 2));
        assertArrayEquals(range(dataA, 0, 5), bytes(buf));
    }

    @Test
    void aDrainedFixedReadSeesTheSlotAsItIsWhenIssued() throws Exception {
        ring.registerFiles(new int[] {-1});
        MemorySegment buf = buffer(arena, 5, 0);
        ring.getSqe().prepOpenat(Fds.AT_FDCWD, a.toString(), OpenFlags.RDONLY, 0).fileIndex(1).userData(1);
        ring.getSqe().prepRead(0, buf, 0).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_DRAIN).userData(2);
        assertEquals(2, ring.submit());
        assertEquals(List.of(cqe(1, 0), cqe(2, 5)), RingTestSupport.reap(ring, 2));
    }

    @Test
    void openIntoAnOccupiedSlotReplacesItsFile() throws Exception {
        int fd = fds.add(Fds.open(b, OpenFlags.RDONLY, 0));
        ring.registerFiles(new int[] {fd});
        assertEquals(cqe(1, 0), one(ring, openInto(a, 1, 1)));
        assertEquals(1, descriptorsOf(b), "the table's duplicate of b is closed");
        MemorySegment buf = buffer(arena, 8, 0);
        assertEquals(cqe(2, 8), readSlot(0, buf, 2));
        assertArrayEquals(range(dataA, 0, 8), bytes(buf));
    }

    @Test
    void openIntoASlotFailsAsLinuxAndLeaksNoDescriptor() throws Exception {
        assertEquals(cqe(1, -Errno.ENXIO), one(ring, openInto(a, 1, 1)), "no table");
        assertEquals(cqe(2, -Errno.ENFILE), one(ring, openInto(a, ALLOC, 2)), "ALLOC without a table");
        ring.registerFiles(new int[] {-1, -1, -1, -1});
        assertEquals(cqe(3, -Errno.EINVAL), one(ring, openInto(a, 5, 3)), "past the table");
        assertEquals(cqe(4, -Errno.EINVAL), one(ring, openInto(a, 0xFFFFFFFE, 4)), "indexes are unsigned");
        assertEquals(cqe(5, -Errno.EINVAL),
                one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, a.toString(), OpenFlags.RDONLY | O_CLOEXEC, 0).fileIndex(1).userData(5)),
                "O_CLOEXEC with a slot");
        assertEquals(cqe(6, -Errno.EBADF), one(ring, openInto(a, 1, 6).andThen(s -> s.flags(SqeFlags.FIXED_FILE))),
                "FIXED_FILE dirfd");
        assertEquals(cqe(7, -Errno.ENOENT), one(ring, openInto(dir.resolve("none"), 1, 7)));
        assertEquals(cqe(8, -Errno.EINVAL), one(ring, openInto(a, 1, 8).andThen(s -> s.bufIndex(1))), "buf index");
        assertEquals(cqe(9, -Errno.EINVAL), one(ring, openInto(a, 1, 9).andThen(s -> s.ioprio(1))), "ioprio");
        assertEquals(0, descriptorsOf(a));
        MemorySegment buf = buffer(arena, 8, 0);
        for (int slot = 0; slot < 4; slot++) {
            assertEquals(cqe(10 + slot, -Errno.EBADF), readSlot(slot, buf, 10 + slot), "slot " + slot + " untouched");
        }
    }

    /**
     * IORING_FILE_INDEX_ALLOC returns the slot it filled, searching from Linux's allocation
     * hint (one past the slot last filled, or the slot last emptied) and wrapping once; a
     * full table is -ENFILE. The sequence and its results are liburing's on Linux 6.18.
     */
    @Test
    void allocPicksFreeSlotsFromTheHintAsLinux() throws Exception {
        int fd = fds.add(Fds.open(b, OpenFlags.RDONLY, 0));
        ring.registerFiles(new int[] {fd, -1, fd, -1});
        int[] expected = {1, 3, -Errno.ENFILE};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(cqe(i, expected[i]), one(ring, openInto(a, ALLOC, i)));
        }
        assertEquals(cqe(10, 0), one(ring, closeSlot(2, 10)));
        assertEquals(cqe(11, 0), one(ring, closeSlot(1, 11)));
        assertEquals(cqe(12, 1), one(ring, openInto(a, ALLOC, 12)));
        assertEquals(cqe(13, 2), one(ring, openInto(a, ALLOC, 13)));
        assertEquals(cqe(14, -Errno.ENFILE), one(ring, openInto(a, ALLOC, 14)));
        assertEquals(cqe(15, 0), one(ring, closeSlot(0, 15)));
        assertEquals(cqe(16, 0), one(ring, closeSlot(3, 16)));
        assertEquals(cqe(17, 3), one(ring, openInto(a, ALLOC, 17)));
        assertEquals(cqe(18, 0), one(ring, openInto(a, ALLOC, 18)), "wrapped");
        assertEquals(4, descriptorsOf(a));

        ring.unregisterFiles();
        assertEquals(0, descriptorsOf(a));
        ring.registerFiles(new int[] {-1, -1, -1});
        assertEquals(cqe(20, 0), one(ring, openInto(a, ALLOC, 20)), "a new table starts at 0");
        ring.updateFiles(2, new int[] {fd});
        assertEquals(cqe(21, 1), one(ring, openInto(a, ALLOC, 21)));
        assertEquals(cqe(22, -Errno.ENFILE), one(ring, openInto(a, ALLOC, 22)));
        assertEquals(cqe(23, 0), one(ring, closeSlot(1, 23)));
        assertEquals(cqe(24, 0), one(ring, openInto(a, 1, 24)), "replacing slot 0 leaves the hint");
        assertEquals(cqe(25, 1), one(ring, openInto(a, ALLOC, 25)));
        ring.updateFiles(0, new int[] {-1, -1});
        assertEquals(cqe(26, 1), one(ring, openInto(a, ALLOC, 26)), "the slot last emptied");
    }

    @Test
    void openIntoASlotOnADeferTaskrunRing() throws Exception {
        try (IoUring r = IoUring.builder().entries(8).flags(DEFER).build()) {
            r.registerFiles(new int[] {-1, -1});
            assertEquals(cqe(1, 0), one(r, openInto(a, 2, 1)));
            assertEquals(cqe(2, 0), one(r, openInto(b, ALLOC, 2)));
            MemorySegment buf = buffer(arena, 8, 0);
            assertEquals(cqe(3, 8), one(r, s -> s.prepRead(0, buf, 8).flags(SqeFlags.FIXED_FILE).userData(3)));
            assertArrayEquals(range(dataB, 8, 16), bytes(buf));
            assertEquals(cqe(4, 0), one(r, closeSlot(1, 4)));
            assertEquals(0, descriptorsOf(a));
        }
        assertEquals(0, descriptorsOf(b));
    }
}

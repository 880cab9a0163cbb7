package io.jring.ops;

import static io.jring.ops.FileOps.results;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cancel;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Opcode;
import io.jring.Poll;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 16 B3/B8: each check sits where Linux 6.18 has it. A prep-time failure consumes the
 * SQE and ends the submit (the NOP after it, user data 99, stays queued); an issue-time one
 * is the CQE's result and the submit goes on. Flags an op has no use for are ignored.
 * Checked on the kernel by PrepIssueScenarios and tool/anchors/prep_issue.c.
 */
@Timeout(20)
class PrepIssueSplitTest extends RingAndArenaFixture {
    private static final long TAIL = 99;
    private final Descriptors fds = new Descriptors();
    private int file;

    PrepIssueSplitTest() {
        super(16);
    }

    @BeforeEach
    void openFile() throws Exception {
        Path p = dir.resolve("data");
        Files.writeString(p, "hello world\n");
        file = fds.add(Fds.open(p, OpenFlags.RDWR, 0));
    }

    @AfterEach
    void closeDescriptors() {
        fds.close();
    }

    /** Prepares one SQE per step, then the NOP with user data 99, and submits. */
    @SafeVarargs
    private int submitWithTail(Consumer<Sqe>... steps) {
        for (Consumer<Sqe> step : steps) {
            step.accept(ring.getSqe());
        }
        ring.getSqe().prepNop().userData(TAIL);
        return ring.submit();
    }

    /** One SQE that fails at prep: the submit consumes it alone, its CQE has {@code -errno}. */
    private void assertFailsAtPrep(int errno, Consumer<Sqe> step) {
        assertEquals(1, submitWithTail(step), "a prep failure ends the submit");
        assertEquals(Map.of(1L, -errno), results(ring, 1));
        assertEquals(1, ring.sqReady(), "the NOP after it waits for the next submit");
        assertEquals(1, ring.submit());
        assertEquals(Map.of(TAIL, 0), results(ring, 1));
    }

    /** One SQE whose result is {@code res} when issued: the submit goes on to the NOP. */
    private void assertResultWhenIssued(int res, Consumer<Sqe> step) {
        assertEquals(2, submitWithTail(step), "an issue-time failure does not end the submit");
        assertEquals(Map.of(1L, res, TAIL, 0), results(ring, 2));
    }

    // ---- reads and writes ----

    @ParameterizedTest(name = "opcode {0}")
    @ValueSource(ints = {Opcode.READ, Opcode.WRITE, Opcode.READV, Opcode.WRITEV})
    void anOffsetBelowMinusOneFailsWhenIssued(int opcode) {
        MemorySegment buf = arena.allocate(10);
        assertResultWhenIssued(-Errno.EINVAL, s -> {
            switch (opcode) {
                case Opcode.READ -> s.prepRead(file, buf, -100);
                case Opcode.WRITE -> s.prepWrite(file, buf, -100);
                case Opcode.READV -> s.prepReadv(file, new MemorySegment[] {buf}, -100);
                default -> s.prepWritev(file, new MemorySegment[] {buf}, -100);
            }
            s.userData(1);
        });
    }

    @Test
    void aReadAtOffsetMinus100FailsItsLinkWhenIssuedAndNotItsHardlink() {
        MemorySegment buf = arena.allocate(10);
        assertEquals(5, submitWithTail(
                s -> s.prepRead(file, buf, -100).userData(1).flags(SqeFlags.IO_LINK),
                s -> s.prepNop().userData(2),
                s -> s.prepRead(file, buf, -100).userData(3).flags(SqeFlags.IO_HARDLINK),
                s -> s.prepNop().userData(4)));
        assertEquals(Map.of(1L, -Errno.EINVAL, 2L, -Errno.ECANCELED, 3L, -Errno.EINVAL, 4L, 0, TAIL, 0),
                results(ring, 5));
    }

    @ParameterizedTest(name = "opcode {0}")
    @ValueSource(ints = {Opcode.READ, Opcode.WRITE, Opcode.RECV, Opcode.SEND})
    void aNullBufferFailsWithEfaultWhenIssued(int opcode) {
        int[] pair = fds.socketPair();
        Fds.write(pair[1], "ping".getBytes(StandardCharsets.US_ASCII));
        assertResultWhenIssued(-Errno.EFAULT, s -> {
            switch (opcode) {
                case Opcode.READ -> s.prepRead(file, null, 0);
                case Opcode.WRITE -> s.prepWrite(file, null, 0);
                case Opcode.RECV -> s.prepRecv(pair[0], null, 0);
                default -> s.prepSend(pair[0], null, 0);
            }
            s.len(10).userData(1);
        });
    }

    @Test
    void aNullBufferOfNoBytesReadsNothing() {
        assertResultWhenIssued(0, s -> s.prepRead(file, null, 0).userData(1));
    }

    @Test
    void aNullVectorFailsWithEfaultWhenIssued() {
        assertResultWhenIssued(-Errno.EFAULT, s -> s.prepReadv(file, new MemorySegment[] {null}, 0).userData(1));
    }

    @Test
    void moreThan1024VectorsIsEinvalAtPrepEvenWithoutAnArray() {
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepReadv(file, null, 0).len(1025).userData(1));
    }

    @Test
    void unknownRwFlagsFailWhenIssuedAfterTheFileAndBeforeTheOffset() {
        MemorySegment buf = arena.allocate(10);
        assertResultWhenIssued(-Errno.EOPNOTSUPP, s -> s.prepRead(file, buf, -100).opFlags(0x10000).userData(1));
        assertResultWhenIssued(-Errno.EBADF, s -> s.prepRead(-1, buf, 0).opFlags(0x10000).userData(1));
    }

    // ---- B8: the file before the provided buffer ----

    @ParameterizedTest(name = "sqe flags 0x{0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void aFixedFileIsLookedUpBeforeABufferIsSelected(int async) {
        int flags = SqeFlags.FIXED_FILE | SqeFlags.BUFFER_SELECT | async;
        assertResultWhenIssued(-Errno.EBADF, s -> s.prepRead(0, null, -1).bufferGroup(1).flags(flags).userData(1));
        assertResultWhenIssued(-Errno.EBADF, s -> s.prepRecv(0, null, 0).bufferGroup(1).flags(flags).userData(1));
    }

    @Test
    void aBadDescriptorOrANonSocketIsReportedBeforeAnEmptyGroup() {
        int[] pipe = fds.pipe();
        assertResultWhenIssued(-Errno.EBADF,
                s -> s.prepRead(0x3fff_ffff, null, -1).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT).userData(1));
        assertResultWhenIssued(-Errno.ENOTSOCK,
                s -> s.prepRecv(pipe[0], null, 0).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT).userData(1));
    }

    @Test
    void aReadThatFailsOnItsFileTakesNoProvidedBuffer() {
        MemorySegment region = arena.allocate(64);
        assertEquals(4, submitWithTail(
                s -> s.prepProvideBuffers(region, 64, 1, 1, 7).userData(0),
                s -> s.prepRead(0x3fff_ffff, null, -1).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT).userData(1),
                s -> s.prepRead(file, null, -1).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT).userData(2)));
        Map<Long, Completion> cqes = FileOps.reapByUserData(ring, 4);
        assertEquals(new Completion(1, -Errno.EBADF, 0), cqes.get(1L));
        assertEquals(new Completion(2, 12, CqeFlags.BUFFER | 7 << CqeFlags.BUFFER_SHIFT), cqes.get(2L));
    }

    @Test
    void aBufferSelectingReadOrRecvIgnoresItsAddress() {
        int[] pair = fds.socketPair();
        Fds.write(pair[1], "ping".getBytes(StandardCharsets.US_ASCII));
        MemorySegment region = arena.allocate(128);
        MemorySegment ignored = arena.allocate(16);
        assertEquals(4, submitWithTail(
                s -> s.prepProvideBuffers(region, 64, 2, 1, 7).userData(0),
                s -> s.prepRead(file, ignored, 0).len(10).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT).userData(1),
                s -> s.prepRecv(pair[0], ignored, 0).len(10).bufferGroup(1).flags(SqeFlags.BUFFER_SELECT)
                        .userData(2)));
        Map<Long, Completion> cqes = FileOps.reapByUserData(ring, 4);
        assertEquals(new Completion(1, 10, CqeFlags.BUFFER | 7 << CqeFlags.BUFFER_SHIFT), cqes.get(1L));
        assertEquals(new Completion(2, 4, CqeFlags.BUFFER | 8 << CqeFlags.BUFFER_SHIFT), cqes.get(2L));
        assertEquals(0L, ignored.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), "the address was not written");
    }

    @Test
    void readvTakesAProvidedBufferCappedByItsOneVector() {
        MemorySegment region = arena.allocate(64);
        MemorySegment[] five = {arena.allocate(5)};
        int select = SqeFlags.BUFFER_SELECT;
        assertEquals(3, submitWithTail(
                s -> s.prepProvideBuffers(region, 8, 1, 1, 7).userData(0),
                s -> s.prepReadv(file, five, 0).bufferGroup(1).flags(select).userData(1)));
        Map<Long, Completion> cqes = FileOps.reapByUserData(ring, 3);
        assertEquals(new Completion(1, 5, CqeFlags.BUFFER | 7 << CqeFlags.BUFFER_SHIFT), cqes.get(1L));
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepReadv(file, new MemorySegment[] {five[0], five[0]}, 0)
                .bufferGroup(1).flags(select).userData(1));
        assertResultWhenIssued(-Errno.ENOBUFS, s -> s.prepReadv(file, five, 0).bufferGroup(1).flags(select).userData(1));
    }

    // ---- OPENAT and SOCKET ----

    @Test
    void openatRefusesAnEmptyPathAtPrep() {
        assertFailsAtPrep(Errno.ENOENT, s -> s.prepOpenat(Fds.AT_FDCWD, "", 0, 0).userData(1));
    }

    @Test
    void openatCountsThePathInBytesAndRefusesPathMaxAtPrep() {
        String name = "/" + "./".repeat(2038) + "jring-no-such-file";   // 4,095 bytes
        assertResultWhenIssued(-Errno.ENOENT, s -> s.prepOpenat(Fds.AT_FDCWD, name, 0, 0).userData(1));
        assertFailsAtPrep(Errno.ENAMETOOLONG, s -> s.prepOpenat(Fds.AT_FDCWD, name + "x", 0, 0).userData(1));
        String wide = "/" + "\u00e9".repeat(2048);   // 2,049 chars, 4,097 bytes in UTF-8
        assertFailsAtPrep(Errno.ENAMETOOLONG, s -> s.prepOpenat(Fds.AT_FDCWD, wide, 0, 0).userData(1));
    }

    private static final int AF_INET = 2;
    private static final int SOCK_STREAM = 1;

    @Test
    void socketRefusesUnknownTypeFlagsAtPrepAndUnknownTypesWhenIssued() {
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepSocket(AF_INET, SOCK_STREAM | 0x10000, 0).userData(1));
        assertResultWhenIssued(-Errno.EINVAL, s -> s.prepSocket(AF_INET, 15, 0).userData(1));
        assertResultWhenIssued(-Errno.EINVAL, s -> s.prepSocket(AF_INET, 15, 0).off(1L << 32 | 15).userData(1));
    }

    @Test
    void socketRefusesABufferIndexAndCloseOnExecIntoASlotAtPrep() {
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepSocket(AF_INET, SOCK_STREAM, 0).bufIndex(1).userData(1));
        assertFailsAtPrep(Errno.EINVAL,
                s -> s.prepSocket(AF_INET, SOCK_STREAM | 02000000, 0).fileIndex(1).userData(1));
    }

    private static final int NOP_FILE = 1 << 1;
    private static final int NOP_FIXED_FILE = 1 << 2;

    @Test
    void socketWithAFileIndexGoesIntoTheFixedTableAndALinkedNopFindsItWhenIssued() {
        ring.registerFiles(new int[] {-1, -1});
        assertEquals(3, submitWithTail(
                s -> s.prepSocket(1, SOCK_STREAM, 0).fileIndex(2).userData(1).flags(SqeFlags.IO_LINK),
                s -> s.prepNop().opFlags(NOP_FILE | NOP_FIXED_FILE).fd(1).userData(2)));
        assertEquals(Map.of(1L, 0, 2L, 0, TAIL, 0), results(ring, 3));
        assertResultWhenIssued(0, s -> s.prepNop().opFlags(NOP_FILE | NOP_FIXED_FILE).fd(1).userData(1)
                .flags(SqeFlags.ASYNC));
        assertResultWhenIssued(-Errno.EBADF, s -> s.prepNop().opFlags(NOP_FILE | NOP_FIXED_FILE).fd(0).userData(1)
                .flags(SqeFlags.ASYNC));
    }

    // ---- flags an op has no use for ----

    @Test
    void fixedFileIsIgnoredByOpsWithoutAFile() {
        MemorySegment region = arena.allocate(128);
        assertEquals(7, submitWithTail(
                s -> s.prepTimeout(1_000_000, 0, 0).userData(1).flags(SqeFlags.FIXED_FILE),
                s -> s.prepNop().userData(2).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK),
                s -> s.prepLinkTimeout(10_000_000_000L, 0).userData(3).flags(SqeFlags.FIXED_FILE),
                s -> s.prepProvideBuffers(region, 64, 2, 1, 0).userData(4).flags(SqeFlags.FIXED_FILE),
                s -> s.prepRemoveBuffers(2, 1).userData(5).flags(SqeFlags.FIXED_FILE),
                s -> s.prepPollRemove(9).userData(6).flags(SqeFlags.FIXED_FILE)));
        assertEquals(Map.of(1L, -Errno.ETIME, 2L, 0, 3L, -Errno.ECANCELED, 4L, 0, 5L, 2, 6L, -Errno.ENOENT, TAIL, 0),
                results(ring, 7));
        assertResultWhenIssued(-Errno.ENOENT, s -> s.prepCancel(9, 0).userData(1).flags(SqeFlags.FIXED_FILE));
    }

    @Test
    void timeoutRemoveRefusesFixedFileAtPrep() {
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepTimeoutRemove(9).userData(1).flags(SqeFlags.FIXED_FILE));
    }

    // ---- the other ops' prep checks ----

    @Test
    void aTimeoutCountIs32BitsAndABufferGroupIsRefusedAtPrep() {
        assertResultWhenIssued(-Errno.ETIME, s -> s.prepTimeout(1_000_000, -1, 0).userData(1));
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepTimeout(1_000_000, 0, 0).bufferGroup(1).userData(1));
    }

    @Test
    void timeoutRemoveWithoutUpdateIgnoresTheNewTime() {
        assertResultWhenIssued(-Errno.ENOENT, s -> s.prepTimeoutRemove(9).addr3(12_345).userData(1));
    }

    @Test
    void provideBuffersRefusesAFirstIdAbove65535WithE2big() {
        MemorySegment region = arena.allocate(128);
        assertFailsAtPrep(Errno.E2BIG, s -> s.prepProvideBuffers(region, 64, 2, 1, 70_000).userData(1));
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepProvideBuffers(region, 64, 2, 1, 65_535).userData(1));
    }

    @Test
    void pollAddRefusesTheLevelFlagAndABufferIndexAtPrep() {
        int[] pair = fds.socketPair();
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepPollAdd(pair[0], Poll.IN).len(8).userData(1));
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepPollAdd(pair[0], Poll.IN).bufIndex(1).userData(1));
    }

    @Test
    void pollRemoveRefusesNewUserDataWithoutAnUpdateAtPrep() {
        assertFailsAtPrep(Errno.EINVAL, s -> s.prepPollRemove(9).off(5).userData(1));
    }

    @Test
    void cancelIgnoresLenWithoutCancelOp() {
        assertResultWhenIssued(-Errno.ENOENT, s -> s.prepCancel(9, 0).len(3).userData(1));
    }

    @Test
    void cancelFdFixedNamesAFixedFileSlot() {
        assertResultWhenIssued(-Errno.EBADF, s -> s.prepCancelFd(0, Cancel.FD_FIXED).userData(1));
        int[] pipe = fds.pipe();
        ring.registerFiles(new int[] {pipe[0]});
        MemorySegment buf = arena.allocate(8);
        ring.getSqe().prepRead(0, buf, -1).userData(2).flags(SqeFlags.FIXED_FILE);
        assertEquals(1, ring.submit());
        assertEquals(2, submitWithTail(s -> s.prepCancelFd(0, Cancel.FD_FIXED).userData(1)));
        assertEquals(Map.of(1L, 0, 2L, -Errno.ECANCELED, TAIL, 0), results(ring, 3));
    }

    @ParameterizedTest(name = "opcode {0}")
    @ValueSource(ints = {Opcode.FSYNC, Opcode.ACCEPT, Opcode.CONNECT, Opcode.SHUTDOWN})
    void aBufferIndexIsRefusedAtPrep(int opcode) {
        int[] pair = fds.socketPair();
        assertFailsAtPrep(Errno.EINVAL, s -> {
            switch (opcode) {
                case Opcode.FSYNC -> s.prepFsync(file, 0);
                case Opcode.ACCEPT -> s.prepAccept(pair[0], 0);
                case Opcode.CONNECT -> s.prepConnect(pair[0], new java.net.InetSocketAddress("127.0.0.1", 9));
                default -> s.prepShutdown(pair[0], 1);
            }
            s.bufIndex(1).userData(1);
        });
    }

    @Test
    void theSameChecksHoldOnADeferTaskrunRing() {
        ring.close();
        ring = IoUring.builder().entries(16).flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
        MemorySegment buf = arena.allocate(10);
        assertResultWhenIssued(-Errno.EINVAL, s -> s.prepRead(file, buf, -100).userData(1));
        assertResultWhenIssued(-Errno.EBADF,
                s -> s.prepRead(0, null, -1).bufferGroup(1).flags(SqeFlags.FIXED_FILE | SqeFlags.BUFFER_SELECT)
                        .userData(1));
        assertFailsAtPrep(Errno.ENOENT, s -> s.prepOpenat(Fds.AT_FDCWD, "", 0, 0).userData(1));
    }
}

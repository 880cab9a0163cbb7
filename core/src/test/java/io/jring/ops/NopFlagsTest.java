package io.jring.ops;

import static io.jring.ops.FileOps.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NOP's op flags ({@link NopOp}) and SQE flags NOP cannot take, each against Linux 6.18
 * (liburing probe on this machine): INJECT_RESULT=1 completes with len; FILE=2 (+FIXED_FILE=4)
 * is -EBADF without such a file; FIXED_BUFFER=8 is -EFAULT without such a buffer; TW=16
 * changes nothing visible; CQE32=32 and unknown bits are -EINVAL; BUFFER_SELECT is
 * -EOPNOTSUPP; a negative injected result breaks a link.
 */
@Timeout(20)
class NopFlagsTest {

    @ParameterizedTest(name = "len {0}")
    @ValueSource(ints = {-7, 0, 5, -11, Integer.MIN_VALUE})   // -11 and INT_MIN are jring's EAGAIN and "queued" markers
    void injectResultCompletesWithLen(int len) {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT).len(len).userData(1);
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT | NopOp.TW).len(len).userData(2).flags(SqeFlags.ASYNC);
            assertEquals(2, ring.submit());
            assertEquals(Map.of(1L, len, 2L, len), results(ring, 2));
        }
    }

    @Test
    void withoutInjectResultLenIsIgnored() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().len(77).fd(5).bufIndex(3).off(9).userData(1);
            ring.getSqe().prepNop().opFlags(NopOp.TW).len(77).userData(2);
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_FILE).fd(9999).userData(3);   // without FILE: ignored
            ring.getSqe().prepNop().fd(9999).userData(4).flags(SqeFlags.FIXED_FILE);  // NOP has no file to look up
            ring.submit();
            assertEquals(Map.of(1L, 0, 2L, 0, 3L, 0, 4L, 0), results(ring, 4));
        }
    }

    @Test
    void fileFlagLooksTheDescriptorUp() {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8)) {
            int[] pipe = fds.pipe();
            ring.getSqe().prepNop().opFlags(NopOp.FILE).fd(pipe[0]).userData(1);
            ring.getSqe().prepNop().opFlags(NopOp.FILE).fd(9999).userData(2);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.INJECT_RESULT).len(5).fd(9999).userData(3);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.INJECT_RESULT).len(5).fd(pipe[1]).userData(4);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.FIXED_FILE).fd(0).userData(5);   // no table
            ring.submit();
            assertEquals(Map.of(1L, 0, 2L, -Errno.EBADF, 3L, -Errno.EBADF, 4L, 5, 5L, -Errno.EBADF), results(ring, 5));
            ring.registerFiles(new int[] {-1, pipe[0], -1});
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.FIXED_FILE).fd(1).userData(6);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.FIXED_FILE).fd(0).userData(7);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.FIXED_FILE).fd(7).userData(8);
            ring.getSqe().prepNop().opFlags(NopOp.FILE | NopOp.FIXED_FILE | NopOp.INJECT_RESULT).len(9).fd(0).userData(9);
            ring.submit();
            assertEquals(Map.of(6L, 0, 7L, -Errno.EBADF, 8L, -Errno.EBADF, 9L, -Errno.EBADF), results(ring, 4));
        }
    }

    @Test
    void fixedBufferFlagLooksTheRegisteredBufferUp() {
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER).userData(1);   // none registered
            ring.submit();
            assertEquals(Map.of(1L, -Errno.EFAULT), results(ring, 1));
            ring.registerBuffers(new MemorySegment[] {arena.allocate(4096), MemorySegment.NULL});
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER).bufIndex(0).userData(2);
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER).bufIndex(1).userData(3);   // sparse
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER).bufIndex(2).userData(4);
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER | NopOp.INJECT_RESULT).len(4).userData(5);
            ring.getSqe().prepNop().opFlags(NopOp.FIXED_BUFFER | NopOp.INJECT_RESULT).len(4).bufIndex(2).userData(6);
            ring.submit();
            assertEquals(Map.of(2L, 0, 3L, -Errno.EFAULT, 4L, -Errno.EFAULT, 5L, 4, 6L, -Errno.EFAULT), results(ring, 5));
        }
    }

    @ParameterizedTest(name = "op flags 0x{0}")
    @ValueSource(ints = {32, 64, 0x80000000})
    void cqe32AndUnknownFlagsAreEinval(int opFlags) {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().opFlags(opFlags).userData(1);
            ring.submit();
            assertEquals(Map.of(1L, -Errno.EINVAL), results(ring, 1));
        }
    }

    @Test
    void aNegativeInjectedResultFailsTheRequest() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT).len(-7).userData(1).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(2);
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT).len(7).userData(3).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(4);
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT).len(-7).userData(5).flags(SqeFlags.CQE_SKIP_SUCCESS);
            ring.getSqe().prepNop().opFlags(NopOp.INJECT_RESULT).len(7).userData(6).flags(SqeFlags.CQE_SKIP_SUCCESS);
            ring.getSqe().prepNop().userData(7);
            assertEquals(7, ring.submit());
            assertEquals(Map.of(1L, -7, 2L, -Errno.ECANCELED, 3L, 7, 4L, 0, 5L, -7, 7L, 0), results(ring, 6));
        }
    }

    @Test
    void bufferSelectIsEopnotsuppBeforeIoprioAndAfterBadFlags() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().userData(1).flags(SqeFlags.BUFFER_SELECT);
            ring.getSqe().prepNop().userData(2).flags(SqeFlags.BUFFER_SELECT).ioprio(1);
            ring.getSqe().prepNop().userData(3).flags(0x80 | SqeFlags.BUFFER_SELECT);
            ring.getSqe().prepNop().userData(4).flags(0x80).ioprio(1);
            ring.getSqe().prepNop().userData(5).ioprio(1);
            for (int i = 1; i <= 5; i++) {
                ring.submit();   // each stops submission: it fails before issue
            }
            assertEquals(Map.of(1L, -Errno.EOPNOTSUPP, 2L, -Errno.EOPNOTSUPP, 3L, -Errno.EINVAL,
                    4L, -Errno.EINVAL, 5L, -Errno.EINVAL), results(ring, 5));
        }
    }

}

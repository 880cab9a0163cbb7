package io.jring.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.IoUringException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * registerBuffers refuses what Linux's io_uring_register_buffers refuses (checked on this
 * machine's 6.18 with liburing): a non-NULL zero-length buffer, one longer than 1 GiB, NULL
 * with a length and memory that is not mapped are -EFAULT; a range whose end wraps around the
 * address space is -EOVERFLOW; NULL with length 0 is a sparse slot. A refused call registers
 * nothing.
 */
@Timeout(20)
class RegisterBuffersValidationTest {

    @Test
    void zeroLengthBufferIsEfault() {
        try (Arena arena = Arena.ofConfined()) {
            assertRefused(Errno.EFAULT, arena.allocate(4096).asSlice(0, 0));
        }
    }

    @Test
    void bufferLongerThanOneGibIsEfault() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(4096, 4096);
            assertRefused(Errno.EFAULT, small.reinterpret((1L << 30) + 1));
        }
    }

    @Test
    void unmappedMemoryIsEfault() {
        assertRefused(Errno.EFAULT, MemorySegment.ofAddress(8).reinterpret(4096));
    }

    @Test
    void anUnmappedSecondBufferFailsTheWholeCall() {
        try (Arena arena = Arena.ofConfined()) {
            assertRefused(Errno.EFAULT, arena.allocate(4096), MemorySegment.ofAddress(8).reinterpret(4096));
        }
    }

    @Test
    void nullWithALengthIsEfault() {
        assertRefused(Errno.EFAULT, MemorySegment.NULL.reinterpret(4096));
    }

    @Test
    void rangeWrappingAroundTheAddressSpaceIsEoverflow() {
        assertRefused(Errno.EOVERFLOW, MemorySegment.ofAddress(-4096L).reinterpret(4096));
    }

    @Test
    void nullWithLengthZeroIsASparseSlotAndUnalignedMemoryIsFine() {
        try (IoUring ring = IoUring.open(4); Arena arena = Arena.ofConfined()) {
            MemorySegment big = arena.allocate(1 << 20, 4096);
            ring.registerBuffers(new MemorySegment[] {MemorySegment.NULL, big.asSlice(100), big.asSlice(0, 1)});
            ring.unregisterBuffers();
        }
    }

    /** The call fails with {@code errno}, and the ring has no buffers afterwards (a good set registers). */
    private static void assertRefused(int errno, MemorySegment... bufs) {
        try (IoUring ring = IoUring.open(4); Arena arena = Arena.ofConfined()) {
            IoUringException e = assertThrows(IoUringException.class, () -> ring.registerBuffers(bufs));
            assertEquals(errno, e.errno(), e.getMessage());
            ring.registerBuffers(new MemorySegment[] {arena.allocate(4096)});
        }
    }
}

package io.jring.sys;

import io.jring.Errno;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mirrors {@link Buffers}: which user segments may reach native code. */
class BuffersTest {
    @Test
    void nativeLiveSegmentIsAccepted() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(64);
            assertEquals(0, Buffers.check(seg));
            assertEquals(0, Buffers.check(seg, 64));
            assertEquals(0, Buffers.check(seg, 0));
        }
        assertEquals(0, Buffers.check(Arena.global().allocate(8)));
    }

    @Test
    void heapSegmentIsEinval() {
        assertEquals(-Errno.EINVAL, Buffers.check(MemorySegment.ofArray(new byte[16])));
        assertEquals(-Errno.EINVAL, Buffers.check(MemorySegment.ofArray(new long[2]), 8));
    }

    @Test
    void closedOrMissingSegmentIsEfault() {
        Arena arena = Arena.ofShared();
        MemorySegment seg = arena.allocate(16);
        arena.close();
        assertEquals(-Errno.EFAULT, Buffers.check(seg));
        assertEquals(-Errno.EFAULT, Buffers.check(null));
    }

    @Test
    void segmentConfinedToAnotherThreadIsEfault() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(16);
            int r = java.util.concurrent.CompletableFuture.supplyAsync(() -> Buffers.check(seg))
                    .get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(-Errno.EFAULT, r);
        }
    }

    @Test
    void lengthBeyondTheSegmentIsEfaultAndNegativeIsEinval() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(16);
            assertEquals(-Errno.EFAULT, Buffers.check(seg, 17));
            assertEquals(-Errno.EINVAL, Buffers.check(seg, -1));
        }
    }
}

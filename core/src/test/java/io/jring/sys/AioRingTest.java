package io.jring.sys;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;

/** Mirrors {@link AioRing}: events read from the mapped completion ring, across wrap-around, in step with the kernel. */
class AioRingTest {
    @TempDir
    Path dir;

    @Test
    void eventsAreTakenInOrderAcrossWrapAroundAndTheKernelSeesTheConsumedHead() throws Exception {
        Path file = dir.resolve("ring");
        Files.write(file, new byte[4096]);
        try (SysCallContext ctx = SysCallContext.confined(); Arena arena = Arena.ofConfined()) {
            MemorySegment ctxId = arena.allocate(JAVA_LONG);
            int r = AioCalls.ioSetup(ctx, 4, ctxId);
            Assumptions.assumeFalse(r == -Errno.ENOSYS || r == -Errno.EPERM || r == -Errno.EAGAIN,
                    "native AIO unavailable here: " + Errno.name(r));
            assertEquals(0, r);
            long aio = ctxId.get(JAVA_LONG, 0);
            AioRing ring = AioRing.map(aio);
            assertNotNull(ring, "this kernel's aio_ring header should be the known layout");
            int fd = Fds.open(file, OpenFlags.RDONLY, 0);
            try {
                assertFalse(ring.hasEvents());
                MemorySegment buf = arena.allocate(64);
                MemorySegment iocbs = arena.allocate(4 * Structs.Iocb.SIZE, 8);
                MemorySegment ptrs = arena.allocate(ADDRESS, 4);
                long next = 0;
                // Many more events than the ring holds: the head must wrap with the kernel's tail.
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < 4; i++) {
                        MemorySegment iocb = iocbs.asSlice(i * Structs.Iocb.SIZE, Structs.Iocb.SIZE);
                        Structs.Iocb.set(iocb, next + i, Structs.Iocb.CMD_PREAD, fd, buf.address(), 1 + i, 0, 0);
                        ptrs.setAtIndex(ADDRESS, i, iocb);
                    }
                    assertEquals(4, AioCalls.ioSubmit(ctx, aio, 4, ptrs), "round " + round);
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    int taken = 0;
                    while (taken < 4) {
                        assertTrue(System.nanoTime() < deadline, "round " + round + ": only " + taken + " events");
                        int head = ring.head();
                        int tail = ring.tail();
                        for (; head != tail; head = ring.next(head)) {
                            assertEquals(next, ring.data(head));
                            assertEquals(1 + taken, ring.res(head));
                            next++;
                            taken++;
                        }
                        ring.consume(head);
                    }
                    assertFalse(ring.hasEvents());
                }
                MemorySegment events = arena.allocate(Structs.IoEvent.SIZE, 8);
                MemorySegment zero = arena.allocate(16, 8);
                assertEquals(0, AioCalls.ioGetevents(ctx, aio, 0, 1, events, zero),
                        "io_getevents must find nothing the ring's consumer took");
            } finally {
                Fds.close(fd);
                ring.close();
                assertEquals(0, AioCalls.ioDestroy(ctx, aio));
            }
            assertThrows(IllegalStateException.class, ring::hasEvents, "a closed view must not touch the unmapped ring");
        }
    }

    @Test
    void noContextNoRing() {
        assertNull(AioRing.map(0L));
    }
}

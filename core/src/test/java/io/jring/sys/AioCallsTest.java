package io.jring.sys;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mirrors {@link AioCalls}: one buffered pread through native AIO, end to end. */
class AioCallsTest {
    @TempDir
    Path dir;

    @Test
    void preadThroughNativeAioCompletesWithByteCount() throws Exception {
        Path file = dir.resolve("aio");
        Files.writeString(file, "native aio works");
        try (SysCallContext ctx = SysCallContext.confined(); Arena arena = Arena.ofConfined()) {
            MemorySegment ctxId = arena.allocate(JAVA_LONG);
            int r = AioCalls.ioSetup(ctx, 4, ctxId);
            Assumptions.assumeFalse(r == -Errno.ENOSYS || r == -Errno.EPERM || r == -Errno.EAGAIN,
                    "native AIO unavailable here: " + Errno.name(r));
            assertEquals(0, r);
            long aio = ctxId.get(JAVA_LONG, 0);
            int fd = Fds.open(file, OpenFlags.RDONLY, 0);
            try {
                MemorySegment buf = arena.allocate(32);
                MemorySegment iocb = arena.allocate(Structs.Iocb.SIZE, 8);
                Structs.Iocb.set(iocb, 77, Structs.Iocb.CMD_PREAD, fd, buf.address(), 6, 7, 0);
                MemorySegment ptrs = arena.allocate(ADDRESS);
                ptrs.set(ADDRESS, 0, iocb);
                assertEquals(1, AioCalls.ioSubmit(ctx, aio, 1, ptrs));

                MemorySegment events = arena.allocate(Structs.IoEvent.SIZE, 8);
                assertEquals(1, AioCalls.ioGetevents(ctx, aio, 1, 1, events, null));
                assertEquals(77, Structs.IoEvent.data(events, 0));
                assertEquals(iocb.address(), Structs.IoEvent.obj(events, 0));
                assertEquals(6, Structs.IoEvent.res(events, 0));
                assertEquals("aio wo", new String(buf.asSlice(0, 6).toArray(JAVA_BYTE), StandardCharsets.US_ASCII));
            } finally {
                Fds.close(fd);
                assertEquals(0, AioCalls.ioDestroy(ctx, aio));
            }
        }
    }

    @Test
    void badContextIsEinval() {
        try (SysCallContext ctx = SysCallContext.confined()) {
            int r = AioCalls.ioDestroy(ctx, 12345);
            Assumptions.assumeFalse(r == -Errno.ENOSYS || r == -Errno.EPERM);
            assertEquals(-Errno.EINVAL, r);
        }
    }
}

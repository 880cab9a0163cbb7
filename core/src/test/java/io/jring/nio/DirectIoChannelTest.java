package io.jring.nio;

import com.sun.nio.file.ExtendedOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * ExtendedOpenOption.DIRECT: the file is O_DIRECT and its requests take jring's device
 * path. The file lives in the build directory (on disk; /tmp may be a tmpfs without O_DIRECT).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DirectIoChannelTest {

    @Test
    void alignedDirectAndHeapBuffersReadAndWriteThroughODirect() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "nio-direct"));
        Path p = dir.resolve("direct-" + ProcessHandle.current().pid());
        try (Arena arena = Arena.ofShared();
             var ch = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE, CREATE, ExtendedOpenOption.DIRECT),
                     (java.util.concurrent.ExecutorService) null)) {
            MemorySegment seg = arena.allocate(8192, 4096);
            ByteBuffer direct = seg.asByteBuffer();
            for (int i = 0; i < 8192; i++) {
                direct.put(i, NioTestFiles.pattern(i));
            }
            assertEquals(8192, ch.write(direct, 0).get(60, TimeUnit.SECONDS));
            ByteBuffer heap = ByteBuffer.allocate(4096);   // through a 4 KiB-aligned bounce buffer
            assertEquals(4096, ch.read(heap, 4096).get(60, TimeUnit.SECONDS));
            for (int i = 0; i < 4096; i++) {
                assertEquals(NioTestFiles.pattern(4096 + i), heap.get(i));
            }
            // A misaligned position is the device's EINVAL, as an IOException.
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> ch.read(ByteBuffer.allocate(4096), 1).get(60, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, e.getCause());
        } finally {
            Files.deleteIfExists(p);
        }
    }
}

package io.jring.nio;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JringAsynchronousFileChannel: reads and writes, buffers, handlers' threads, size/truncate/force, open. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JringAsynchronousFileChannelTest {
    private static JringAsynchronousChannelGroup group;
    @TempDir
    Path dir;

    @BeforeAll
    static void openGroup() {
        group = JringAsynchronousChannelGroup.open(2);
    }

    @AfterAll
    static void closeGroup() throws Exception {
        group.shutdownNow();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    private JringAsynchronousFileChannel open(Path p, StandardOpenOption... o) throws IOException {
        return JringAsynchronousFileChannel.open(p, Set.of(o), group);
    }

    @Test
    void heapWriteThenDirectReadMovePositionsByTheBytesTransferred() throws Exception {
        Path p = dir.resolve("f");
        try (var ch = open(p, READ, WRITE, CREATE)) {
            ByteBuffer src = ByteBuffer.wrap("xxhello worldyy".getBytes(StandardCharsets.US_ASCII));
            src.position(2).limit(13);
            assertEquals(11, ch.write(src, 5).get());
            assertEquals(13, src.position());
            assertEquals(16, ch.size());
            ByteBuffer dst = ByteBuffer.allocateDirect(64);
            dst.position(3);
            assertEquals(11, ch.read(dst, 5).get());   // a partial read: fewer bytes than remaining
            assertEquals(14, dst.position());
            byte[] got = new byte[11];
            dst.get(3, got);
            assertEquals("hello world", new String(got, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void heapBufferWithArrayOffsetReadsIntoItsOwnWindow() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 100_000);
        try (var ch = open(p, READ)) {
            ByteBuffer dst = ByteBuffer.wrap(new byte[90_000], 1000, 80_000).slice();
            assertEquals(80_000, ch.read(dst, 10).get());
            assertEquals(80_000, dst.position());
            for (int i = 0; i < 80_000; i++) {
                assertEquals(NioTestFiles.pattern(10 + i), dst.get(i));
            }
            assertEquals(0, dst.array()[999]);   // nothing written before the slice
        }
    }

    @Test
    void readAtOrPastTheEndGivesMinusOneAndAnEmptyBufferGivesZero() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 10);
        try (var ch = open(p, READ)) {
            assertEquals(-1, ch.read(ByteBuffer.allocate(4), 10).get());
            assertEquals(-1, ch.read(ByteBuffer.allocate(4), 1 << 20).get());
            assertEquals(0, ch.read(ByteBuffer.allocate(0), 0).get());
            ByteBuffer b = ByteBuffer.allocate(100);
            assertEquals(10, ch.read(b, 0).get());
            assertEquals(10, b.position());
        }
    }

    @Test
    void aWriteBeyondTheEndExtendsTheFile() throws Exception {
        Path p = dir.resolve("f");
        try (var ch = open(p, WRITE, CREATE)) {
            assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 1000).get());
            assertEquals(1003, ch.size());
        }
        byte[] all = Files.readAllBytes(p);
        assertEquals(0, all[999]);
        assertEquals(3, all[1002]);
    }

    @Test
    void handlerGetsItsAttachmentOnAGroupThread() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 4096);
        try (var ch = open(p, READ)) {
            CompletableFuture<String> where = new CompletableFuture<>();
            Object att = new Object();
            ch.read(ByteBuffer.allocate(4096), 0, att, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    where.complete(n + " " + (a == att) + " " + Thread.currentThread().getName());
                }

                @Override
                public void failed(Throwable exc, Object a) {
                    where.completeExceptionally(exc);
                }
            });
            String s = where.get(60, TimeUnit.SECONDS);
            assertTrue(s.startsWith("4096 true jring-nio-"), s);
        }
    }

    @Test
    void handlerRunsOnTheExecutorTheChannelWasOpenedWith() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 4096);
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> new Thread(r, "caller-pool"));
        try (var ch = JringAsynchronousFileChannel.open(p, Set.of(READ), ex)) {
            CompletableFuture<String> where = new CompletableFuture<>();
            ch.read(ByteBuffer.allocate(10), 0, null, handler(where));
            assertEquals("caller-pool", where.get(60, TimeUnit.SECONDS));
        } finally {
            ex.shutdownNow();
        }
    }

    static CompletionHandler<Integer, Object> handler(CompletableFuture<String> where) {
        return new CompletionHandler<>() {
            @Override
            public void completed(Integer n, Object a) {
                where.complete(Thread.currentThread().getName());
            }

            @Override
            public void failed(Throwable exc, Object a) {
                where.completeExceptionally(exc);
            }
        };
    }

    @Test
    void aHandlerMayStartTheNextOperation() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 1000 * 100);
        try (var ch = open(p, READ)) {
            ByteBuffer b = ByteBuffer.allocate(100);
            CompletableFuture<Long> done = new CompletableFuture<>();
            ch.read(b, 0, 0L, new CompletionHandler<Integer, Long>() {
                @Override
                public void completed(Integer n, Long pos) {
                    if (n < 0) {
                        done.complete(pos);
                        return;
                    }
                    b.clear();
                    ch.read(b, pos + n, pos + n, this);
                }

                @Override
                public void failed(Throwable exc, Long pos) {
                    done.completeExceptionally(exc);
                }
            });
            assertEquals(100_000L, done.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void misuseThrowsAsTheJavadocSays() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 10);
        try (var ro = open(p, READ); var wo = open(p, WRITE)) {
            assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1), 0));
            assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1), 0));
            assertThrows(IllegalArgumentException.class, () -> ro.read(ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class, () -> ro.read(ByteBuffer.allocate(1).asReadOnlyBuffer(), 0));
            assertThrows(NullPointerException.class, () -> ro.read(null, 0));
            assertThrows(NonWritableChannelException.class, () -> ro.truncate(0));
            assertThrows(IllegalArgumentException.class, () -> wo.truncate(-1));
        }
        assertThrows(UnsupportedOperationException.class,
                () -> open(p, WRITE, StandardOpenOption.APPEND));
        assertThrows(NoSuchFileException.class, () -> open(dir.resolve("none"), READ));
        assertThrows(FileAlreadyExistsException.class, () -> open(p, WRITE, StandardOpenOption.CREATE_NEW));
    }

    @Test
    void sizeTruncateAndForce() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 1000);
        try (var ch = open(p, READ, WRITE)) {
            assertEquals(1000, ch.size());
            assertEquals(ch, ch.truncate(2000));   // never grows the file
            assertEquals(1000, ch.size());
            ch.truncate(10);
            assertEquals(10, ch.size());
            ch.force(true);
            ch.force(false);
        }
    }

    @Test
    void aClosedChannelFailsOperationsWithClosedChannelException() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 10);
        var ch = open(p, READ, WRITE);
        ch.close();
        ch.close();   // twice is a no-op
        assertFalse(ch.isOpen());
        ExecutionException e = assertThrows(ExecutionException.class, () -> ch.read(ByteBuffer.allocate(1), 0).get());
        assertInstanceOf(ClosedChannelException.class, e.getCause());
        CompletableFuture<String> f = new CompletableFuture<>();
        ch.write(ByteBuffer.allocate(1), 0, null, handler(f));
        e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertInstanceOf(ClosedChannelException.class, e.getCause());
        assertThrows(ClosedChannelException.class, ch::size);
        assertThrows(ClosedChannelException.class, () -> ch.force(true));
        assertThrows(ClosedChannelException.class, () -> ch.tryLock());
    }

    @Test
    void createWithPermissionsAndDeleteOnClose() throws Exception {
        Path p = dir.resolve("new");
        try (var ch = JringAsynchronousFileChannel.open(p, EnumSet.of(WRITE, CREATE), group,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r-----")))) {
            assertEquals(1, ch.write(ByteBuffer.wrap(new byte[] {9}), 0).get());
        }
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
        Path tmp = dir.resolve("tmp");
        try (var ch = open(tmp, WRITE, CREATE, StandardOpenOption.DELETE_ON_CLOSE)) {
            assertEquals(1, ch.write(ByteBuffer.wrap(new byte[] {9}), 0).get());
        }
        assertFalse(Files.exists(tmp));
    }

    @Test
    void futureFormsOnTheDefaultGroup() throws Exception {
        Path p = NioTestFiles.patterned(dir, "f", 8192);
        try (var ch = JringAsynchronousFileChannel.open(p, READ)) {
            ByteBuffer b = ByteBuffer.allocate(8192);
            Future<Integer> f = ch.read(b, 0);
            assertEquals(8192, f.get(60, TimeUnit.SECONDS));
            byte[] want = Files.readAllBytes(p);
            assertArrayEquals(want, b.array());
        }
    }
}

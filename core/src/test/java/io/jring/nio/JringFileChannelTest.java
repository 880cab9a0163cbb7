package io.jring.nio;

import static java.nio.file.StandardOpenOption.APPEND;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JringFileChannel against FileChannel's contract, as the JDK's own channel behaves. */
class JringFileChannelTest {
    @TempDir
    Path dir;

    private Path file(String content) throws Exception {
        Path f = Files.createTempFile(dir, "f", ".dat");
        Files.writeString(f, content);
        return f;
    }

    private static String str(ByteBuffer b) {
        b.flip();
        return StandardCharsets.US_ASCII.decode(b).toString();
    }

    @Test
    void relativeReadsAdvanceThePositionAndEndWithMinusOne() throws Exception {
        try (FileChannel ch = JringFileChannel.open(file("0123456789"), READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            assertEquals(4, ch.read(b));
            assertEquals("0123", str(b));
            assertEquals(4, ch.position());
            ByteBuffer d = ByteBuffer.allocateDirect(16);
            assertEquals(6, ch.read(d));
            assertEquals("456789", str(d));
            assertEquals(-1, ch.read(ByteBuffer.allocate(4)));
            assertEquals(0, ch.read(ByteBuffer.allocate(0)));
            assertEquals(10, ch.size());
        }
    }

    @Test
    void positionalReadsAndWritesLeaveThePosition() throws Exception {
        Path f = file("0123456789");
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(3);
            assertEquals(3, ch.read(b, 5));
            assertEquals("567", str(b));
            assertEquals(0, ch.position());
            assertEquals(-1, ch.read(ByteBuffer.allocate(3), 100), "beyond the end");
            assertEquals(2, ch.write(ByteBuffer.wrap("ab".getBytes()), 12), "beyond the end: a hole");
            assertEquals(14, ch.size());
            assertEquals(0, ch.position());
        }
        byte[] all = Files.readAllBytes(f);
        assertEquals(0, all[10]);
        assertEquals('b', all[13]);
    }

    @Test
    void scatterAndGatherOverHeapAndDirectBuffers() throws Exception {
        Path f = file("");
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE)) {
            ByteBuffer d = ByteBuffer.allocateDirect(3).put("def".getBytes()).flip();
            ByteBuffer[] src = {ByteBuffer.wrap("abc".getBytes()), ByteBuffer.allocate(0), d, ByteBuffer.wrap("g".getBytes())};
            assertEquals(7, ch.write(src));
            assertEquals(7, ch.position());
            for (ByteBuffer s : src) {
                assertFalse(s.hasRemaining());
            }
            ch.position(1);
            ByteBuffer x = ByteBuffer.allocate(2);
            ByteBuffer y = ByteBuffer.allocateDirect(10);
            assertEquals(6, ch.read(new ByteBuffer[] {x, y}, 0, 2));
            assertEquals("bc", str(x));
            assertEquals("defg", str(y));
            assertThrows(IndexOutOfBoundsException.class, () -> ch.read(new ByteBuffer[1], 1, 1));
        }
        assertEquals("abcdefg", Files.readString(f));
    }

    @Test
    void appendModeWritesAtTheEndAndPositionIsTheSize() throws Exception {
        Path f = file("abc");
        try (FileChannel ch = JringFileChannel.open(f, APPEND)) {
            assertEquals(3, ch.position());
            ch.position(0);
            assertEquals(2, ch.write(ByteBuffer.wrap("de".getBytes())));
            assertEquals(5, ch.position());
        }
        assertEquals("abcde", Files.readString(f));
        assertThrows(IllegalArgumentException.class, () -> JringFileChannel.open(f, READ, APPEND));
        assertThrows(IllegalArgumentException.class, () -> JringFileChannel.open(f, APPEND, TRUNCATE_EXISTING));
    }

    @Test
    void truncateShrinksOnlyAndClampsThePosition() throws Exception {
        Path f = file("0123456789");
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE)) {
            ch.position(8);
            ch.truncate(20);
            assertEquals(10, ch.size(), "a larger size does not grow the file");
            assertEquals(8, ch.position());
            ch.truncate(4);
            assertEquals(4, ch.size());
            assertEquals(4, ch.position());
            assertThrows(IllegalArgumentException.class, () -> ch.truncate(-1));
            ch.force(true);
            ch.force(false);
        }
        try (FileChannel ro = JringFileChannel.open(f, READ)) {
            assertThrows(NonWritableChannelException.class, () -> ro.truncate(0));
            assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1)));
            assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1), 0));
            ro.force(true);
        }
        try (FileChannel wo = JringFileChannel.open(f, WRITE)) {
            assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1)));
            assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1), 0));
        }
    }

    @Test
    void argumentChecksAndClosedChannel() throws Exception {
        FileChannel ch = JringFileChannel.open(file("abc"), READ, WRITE);
        assertThrows(IllegalArgumentException.class, () -> ch.position(-1));
        assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1), -1));
        assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(1), -1));
        assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1).asReadOnlyBuffer()));
        ch.close();
        assertFalse(ch.isOpen());
        ch.close();
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1), 0));
        assertThrows(ClosedChannelException.class, ch::size);
        assertThrows(ClosedChannelException.class, ch::position);
        assertThrows(ClosedChannelException.class, () -> ch.force(true));
        assertThrows(ClosedChannelException.class, () -> ch.truncate(0));
    }

    @Test
    void openOptionsAndTheirExceptions() throws Exception {
        Path f = dir.resolve("new");
        assertThrows(NoSuchFileException.class, () -> JringFileChannel.open(f, READ));
        assertThrows(NoSuchFileException.class, () -> JringFileChannel.open(f, READ, CREATE), "CREATE needs WRITE");
        JringFileChannel.open(f, Set.of(WRITE, CREATE_NEW),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))).close();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertThrows(FileAlreadyExistsException.class, () -> JringFileChannel.open(f, WRITE, CREATE_NEW));
        Files.writeString(f, "xyz");
        JringFileChannel.open(f, WRITE, TRUNCATE_EXISTING).close();
        assertEquals(0, Files.size(f));
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE, DELETE_ON_CLOSE)) {
            assertFalse(Files.exists(f), "unlinked at once, as the JDK on Unix");
            ch.write(ByteBuffer.wrap("still usable".getBytes()));
            assertEquals(12, ch.size());
        }
    }

    @Test
    void transfersMapAndLocks() throws Exception {
        Path f = file("0123456789");
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(6, ch.transferTo(4, 100, Channels.newChannel(out)));
            assertEquals("456789", out.toString());
            assertEquals(0, ch.transferTo(20, 5, Channels.newChannel(out)));
            assertEquals(3, ch.transferFrom(Channels.newChannel(new java.io.ByteArrayInputStream("abc".getBytes())), 8, 10));
            assertEquals(11, ch.size());
            assertEquals(0, ch.transferFrom(Channels.newChannel(new java.io.ByteArrayInputStream("abc".getBytes())), 50, 3));
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4);
            assertEquals('0', m.get(0));
            FileLock l = ch.lock(0, 5, false);
            assertSame(ch, l.channel());
            assertTrue(l.isValid());
            assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 5, false));
            l.release();
            assertFalse(l.isValid());
            FileLock t = ch.tryLock();
            assertNotNull(t);
            t.release();
            FileLock kept = ch.lock(0, 1, true);
            ch.close();
            assertFalse(kept.isValid(), "closing the channel releases its locks");
        }
        assertEquals("01234567abc", Files.readString(f));
        try (FileChannel ro = JringFileChannel.open(f, READ)) {
            assertThrows(NonWritableChannelException.class, () -> ro.map(FileChannel.MapMode.READ_WRITE, 0, 1));
            assertThrows(NonWritableChannelException.class, () -> ro.lock(0, 1, false));
            assertThrows(NonWritableChannelException.class,
                    () -> ro.transferFrom(Channels.newChannel(new java.io.ByteArrayInputStream(new byte[1])), 0, 1));
        }
    }

    @Test
    void anInterruptedVirtualThreadClosesTheChannel() throws Exception {
        Path f = file("0123456789");
        FileChannel ch = JringFileChannel.open(f, READ);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread t = Thread.ofVirtual().unstarted(() -> {
            Thread.currentThread().interrupt();
            try {
                ch.read(ByteBuffer.allocate(4), 0);
            } catch (Throwable e) {
                seen.set(e);
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        t.join();
        assertTrue(seen.get() instanceof ClosedByInterruptException, "got " + seen.get());
        assertTrue(stillInterrupted.get());
        assertFalse(ch.isOpen());
    }

    @Test
    void oDirectGoesThroughTheRingOnVirtualThreads() throws Exception {
        Path f = dir.resolve("direct");
        byte[] data = new byte[1 << 20];
        new java.util.Random(1).nextBytes(data);
        Files.write(f, data);
        java.nio.file.OpenOption directOpt = com.sun.nio.file.ExtendedOpenOption.DIRECT;
        try (FileChannel ch = JringFileChannel.open(f, READ, WRITE, directOpt)) {
            Thread[] ts = new Thread[32];
            AtomicReference<Throwable> err = new AtomicReference<>();
            for (int i = 0; i < ts.length; i++) {
                int block = i;
                ts[i] = Thread.ofVirtual().start(() -> {
                    try {
                        ByteBuffer b = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                        assertEquals(4096, ch.read(b, 4096L * block));
                        b.flip();
                        byte[] got = new byte[4096];
                        b.get(got);
                        assertArrayEquals(java.util.Arrays.copyOfRange(data, 4096 * block, 4096 * block + 4096), got);
                        ByteBuffer heap = ByteBuffer.allocate(4096);
                        assertEquals(4096, ch.read(heap, 4096L * block), "a heap buffer through an aligned bounce buffer");
                    } catch (Throwable e) {
                        err.set(e);
                    }
                });
            }
            for (Thread t : ts) {
                t.join();
            }
            assertNull(err.get());
            ByteBuffer w = ByteBuffer.allocate(4096);
            w.put(0, (byte) 7);
            assertEquals(4096, ch.write(w, 0));
            ch.force(false);
        }
        assertEquals(7, Files.readAllBytes(f)[0]);
    }
}

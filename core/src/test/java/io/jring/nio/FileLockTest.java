package io.jring.nio;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** lock, tryLock and FileLock of JringAsynchronousFileChannel (open file description locks). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileLockTest {
    private static JringAsynchronousChannelGroup group;
    @TempDir
    Path dir;

    @BeforeAll
    static void openGroup() {
        group = JringAsynchronousChannelGroup.open(1);
    }

    @AfterAll
    static void closeGroup() throws Exception {
        group.shutdownNow();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    @Test
    void lockThenOverlapThrowsAndReleaseFreesTheRange() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[100]);
        try (var ch = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group);
             var other = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group)) {
            FileLock l = ch.lock(10, 20, false).get(60, TimeUnit.SECONDS);
            assertTrue(l.isValid());
            assertSame(ch, l.acquiredBy());
            assertEquals(10, l.position());
            assertEquals(20, l.size());
            assertFalse(l.isShared());
            assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 11, true));
            assertThrows(OverlappingFileLockException.class, () -> other.lock(29, 1, false));   // any channel of the JVM
            FileLock beside = ch.tryLock(30, 10, false);   // touching, not overlapping
            assertNotNull(beside);
            l.release();
            assertFalse(l.isValid());
            l.release();   // a second release does nothing
            FileLock again = other.tryLock(0, 30, true);
            assertNotNull(again);
            assertTrue(again.isShared());
            again.close();
            beside.release();
        }
    }

    @Test
    void closingTheChannelInvalidatesItsLocks() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[100]);
        var ch = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group);
        FileLock whole = ch.lock().get(60, TimeUnit.SECONDS);
        assertEquals(Long.MAX_VALUE, whole.size());
        ch.close();
        assertFalse(whole.isValid());
        assertThrows(ClosedChannelException.class, whole::release);
        try (var ch2 = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group)) {
            FileLock l = ch2.tryLock();   // the table and the OS lock are free again
            assertNotNull(l);
            l.release();
        }
    }

    @Test
    void aLockHeldByAnotherOpenFileIsNotTakenByTryLockAndLockWaitsForIt() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[100]);
        // The JDK's FileChannel takes a POSIX lock, which conflicts with an OFD lock.
        try (FileChannel jdk = FileChannel.open(p, READ, WRITE);
             var ch = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group)) {
            FileLock held = jdk.lock(0, 50, false);
            assertNull(ch.tryLock(0, 10, false));
            var waiting = ch.lock(0, 10, false);
            held.release();
            FileLock got = waiting.get(60, TimeUnit.SECONDS);
            assertTrue(got.isValid());
            got.release();
        }
    }

    @Test
    void lockModesNeedTheMatchingAccess() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[10]);
        try (var ro = JringAsynchronousFileChannel.open(p, Set.of(READ), group);
             var wo = JringAsynchronousFileChannel.open(p, Set.of(WRITE), group)) {
            assertThrows(NonWritableChannelException.class, () -> ro.tryLock(0, 1, false));
            assertThrows(NonReadableChannelException.class, () -> wo.lock(0, 1, true));
            assertThrows(IllegalArgumentException.class, () -> ro.tryLock(-1, 1, true));
        }
    }
}

package io.jring.nio;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operations that stay pending (reads of an empty FIFO): close with operations pending,
 * Future.cancel, the group's bound on operations in flight, group shutdown and shutdownNow.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PendingOperationsTest {
    @TempDir
    Path dir;
    private JringAsynchronousChannelGroup group;

    @BeforeEach
    void openGroup() {
        group = JringAsynchronousChannelGroup.open(1, 2, JringAsynchronousChannelGroup.namedThreads(false));
    }

    @AfterEach
    void closeGroup() throws Exception {
        group.shutdownNow();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
        assertTrue(group.isTerminated());
    }

    private JringAsynchronousFileChannel fifo(String name) throws Exception {
        return JringAsynchronousFileChannel.open(NioTestFiles.fifo(dir, name), Set.of(READ, WRITE), group);
    }

    @Test
    void closeFailsEveryPendingOperationWithAsynchronousCloseException() throws Exception {
        var ch = fifo("p");
        Future<Integer> f = ch.read(ByteBuffer.allocate(10), 0);
        CompletableFuture<Throwable> h = new CompletableFuture<>();
        ch.read(ByteBuffer.allocateDirect(10), 0, "att", new java.nio.channels.CompletionHandler<Integer, String>() {
            @Override
            public void completed(Integer n, String a) {
                h.complete(null);
            }

            @Override
            public void failed(Throwable exc, String a) {
                h.complete(exc);
            }
        });
        ch.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, e.getCause());
        assertInstanceOf(AsynchronousCloseException.class, h.get(60, TimeUnit.SECONDS));
    }

    @Test
    void futureCancelCancelsThePendingReadAndLeavesTheChannelOpen() throws Exception {
        try (var ch = fifo("p")) {
            ByteBuffer b = ByteBuffer.allocate(10);
            Future<Integer> f = ch.read(b, 0);
            assertTrue(f.cancel(true));
            assertTrue(f.isCancelled());
            assertTrue(f.isDone());
            assertThrows(CancellationException.class, f::get);
            assertTrue(ch.isOpen());
            assertEquals(0, b.position());
            // The channel still works: a write, then a read that finds the data.
            assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 0).get(60, TimeUnit.SECONDS));
            ByteBuffer got = ByteBuffer.allocate(10);
            assertEquals(3, ch.read(got, 0).get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void aCallerOutsideTheGroupWaitsWhileTheBoundIsReached() throws Exception {
        var ch = fifo("p");
        Path fifoPath = dir.resolve("p");
        List<Future<Integer>> pending = new ArrayList<>();
        pending.add(ch.read(ByteBuffer.allocate(1), 0));
        pending.add(ch.read(ByteBuffer.allocate(1), 0));   // the bound is 2
        CompletableFuture<Future<Integer>> third = new CompletableFuture<>();
        Thread t = new Thread(() -> third.complete(ch.read(ByteBuffer.allocate(1), 0)), "third");
        t.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, t.getState());
        assertFalse(third.isDone());
        // One byte (written outside the channel: a write would need a permit too) completes
        // one read, which gives its permit to the waiting caller.
        try (var out = new java.io.FileOutputStream(fifoPath.toFile())) {
            out.write(7);
        }
        Future<Integer> f3 = third.get(60, TimeUnit.SECONDS);
        try (var out = new java.io.FileOutputStream(fifoPath.toFile())) {
            out.write(new byte[] {8, 9});
        }
        for (Future<Integer> f : List.of(pending.get(0), pending.get(1), f3)) {
            assertEquals(1, f.get(60, TimeUnit.SECONDS));
        }
        ch.close();
    }

    @Test
    void shutdownRefusesNewChannelsAndTerminatesWhenTheLastOneCloses() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[10]);
        var ch = JringAsynchronousFileChannel.open(p, Set.of(READ), group);
        group.shutdown();
        assertTrue(group.isShutdown());
        assertThrows(ShutdownChannelGroupException.class, () -> JringAsynchronousFileChannel.open(p, Set.of(READ), group));
        assertEquals(10, ch.read(ByteBuffer.allocate(10), 0).get(60, TimeUnit.SECONDS));   // still works
        assertFalse(group.awaitTermination(1, TimeUnit.MILLISECONDS));
        assertFalse(group.isTerminated());
        ch.close();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    @Test
    void shutdownNowClosesTheOpenChannels() throws Exception {
        var ch = fifo("p");
        Future<Integer> f = ch.read(ByteBuffer.allocate(1), 0);
        group.shutdownNow();
        assertFalse(ch.isOpen());
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, e.getCause());
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }
}

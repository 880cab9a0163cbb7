package io.jring;

import static io.jring.RingTestSupport.errnoOf;
import static io.jring.RingTestSupport.on;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static io.jring.RingTestSupport.run;
import static io.jring.RingTestSupport.thrownOnNewThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IORING_SETUP_SINGLE_ISSUER (RingContext's owner check; liburing's test/single-issuer.c):
 * the first thread that submits owns the ring, any other thread's submit or wait is EEXIST,
 * and close() is allowed from any thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SingleIssuerTest {

    private ExecutorService ownerThread;

    @BeforeEach
    void startOwner() {
        ownerThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "single-issuer-owner"));
    }

    @AfterEach
    void stopOwner() throws InterruptedException {
        ownerThread.shutdownNow();
        ownerThread.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static void assertEexist(Executable call) {
        assertEquals(Errno.EEXIST, errnoOf(call));
    }

    private static void assertEexistOnNewThread(Executable call) throws InterruptedException {
        Throwable t = thrownOnNewThread(call);
        assertEquals(Errno.EEXIST, assertInstanceOf(IoUringException.class, t, "expected EEXIST").errno());
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void firstSubmitterNotTheCreatorBecomesTheOwner(int setup) throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            run(ownerThread, () -> {
                prepNops(ring, 1, 2, 0);
                prepNops(ring, 3, 1, SqeFlags.ASYNC);
                assertEquals(3, ring.submitAndWait(3));
                assertEquals(List.of(1L, 2L, 3L), reap(ring, 3).stream().map(Completion::userData).sorted().toList());
            });
            // The creator (this thread) is now a stranger to the ring.
            assertEexist(ring::submit);
            assertEexist(() -> ring.submitAndWait(1));
            assertEexist(ring::waitCqe);
            assertEexist(() -> ring.waitCqe(Duration.ofMillis(1)));
            assertEexist(ring::peekCqe);
            assertEexist(ring::getSqe);
            // The owner keeps working.
            assertEquals(1, (int) on(ownerThread, () -> {
                prepNops(ring, 4, 1, 0);
                return ring.submitAndWait(1);
            }));
            assertEquals(new Completion(4, 0, 0), on(ownerThread, () -> reap(ring, 1).get(0)));
        }
    }

    /**
     * Registering files and buffers before anyone submitted does not claim the ring: the
     * thread that submits first owns it (API.md), a setup thread can prepare it for another.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void registeringBeforeAnySubmitDoesNotTakeOwnership(int setup) throws Throwable {
        try (Descriptors fds = new Descriptors();
             IoUring ring = IoUring.builder().entries(8).flags(setup).build();
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            int[] pipe = fds.pipe();
            ring.registerFiles(new int[] {pipe[0], pipe[1]});
            ring.registerBuffers(new java.lang.foreign.MemorySegment[] {arena.allocate(64)});
            run(ownerThread, () -> {
                prepNops(ring, 1, 1, 0);
                assertEquals(1, ring.submitAndWait(1));
                assertEquals(List.of(new Completion(1, 0, 0)), reap(ring, 1));
            });
            assertEexist(ring::submit);
            assertEexist(() -> ring.registerFiles(new int[] {pipe[0]}));
            assertEexist(ring::unregisterBuffers);
            run(ownerThread, ring::unregisterFiles);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void secondThreadSubmitWaitAndPeekThrowEexist(int setup) throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            prepNops(ring, 1, 1, 0);
            assertEquals(1, ring.submit()); // this thread (the creator) submits first: owner
            assertEexistOnNewThread(ring::submit);
            assertEexistOnNewThread(() -> ring.submitAndWait(1));
            assertEexistOnNewThread(ring::waitCqe);
            assertEexistOnNewThread(() -> ring.waitCqe(Duration.ofMillis(1)));
            assertEexistOnNewThread(ring::peekCqe);
            assertEexistOnNewThread(() -> ring.forEachCqe((ud, res, fl) -> { }));
            // The rejected calls changed nothing: the CQE is still there for the owner.
            assertEquals(List.of(new Completion(1, 0, 0)), reap(ring, 1));
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void closeFromAnotherThreadIsAllowed(int setup) throws Throwable {
        IoUring ring = IoUring.builder().entries(16).flags(setup).build();
        run(ownerThread, () -> {
            ring.registerIoWqMaxWorkers(1, 1);
            prepNops(ring, 0, 16, SqeFlags.ASYNC);
            assertEquals(16, ring.submit());
        });
        String wq = RingTestSupport.ioWqName(ring);
        assertNull(thrownOnNewThread(ring::close), "close from a third thread");
        assertEquals(List.of(), RingTestSupport.liveWorkers(wq));
        run(ownerThread, () -> assertEquals(Errno.EBADFD, errnoOf(ring::submit)));
        assertEquals(Errno.EBADFD, errnoOf(ring::peekCqe), "closed wins over not-the-owner");
        ring.close();
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, Setup.SUBMIT_ALL})
    void ringWithoutSingleIssuerMayBeUsedByAnotherThreadInTurn(int setup) throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            prepNops(ring, 1, 1, 0);
            ring.submit();
            run(ownerThread, () -> {
                prepNops(ring, 2, 1, SqeFlags.ASYNC);
                assertEquals(1, ring.submitAndWait(2));
                assertEquals(List.of(1L, 2L), reap(ring, 2).stream().map(Completion::userData).sorted().toList());
            });
            prepNops(ring, 3, 1, 0);
            ring.submit();
            assertEquals(List.of(new Completion(3, 0, 0)), reap(ring, 1));
        }
    }
}

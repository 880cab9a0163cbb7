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
 * the first thread that submits owns the ring and any other thread's submit is EEXIST.
 * Reading the CQ follows Linux (io_cqring_wait, io_allowed_run_tw; measured with
 * tool/anchors/dying_submitter.c): any thread may read and wait on a SINGLE_ISSUER ring;
 * on a DEFER_TASKRUN ring only the owner runs the ring's work, so another thread reads
 * what is posted and a wait that would have to block is EEXIST. close() is allowed from
 * any thread.
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
            // The creator (this thread) is now a stranger to the ring: it may read, not submit.
            assertEexist(ring::submit);
            assertEexist(() -> ring.submitAndWait(1));
            assertEexist(ring::getSqe);
            assertNull(ring.peekCqe());
            if ((setup & Setup.DEFER_TASKRUN) != 0) {
                assertEexist(ring::waitCqe);
                assertEexist(() -> ring.waitCqe(Duration.ofMillis(1)));
            } else {
                assertNull(ring.waitCqe(Duration.ofMillis(1)));
            }
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
    void secondThreadsSubmitIsEexistButItReadsWhatIsPosted(int setup) throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            prepNops(ring, 1, 1, 0);
            assertEquals(1, ring.submit()); // this thread (the creator) submits first: owner
            assertEexistOnNewThread(ring::submit);
            assertEexistOnNewThread(() -> ring.submitAndWait(1));
            assertEexistOnNewThread(ring::getSqe);
            // A ready CQE is there for any thread to see (liburing reads it without entering).
            assertNull(thrownOnNewThread(() -> assertEquals(1L, ring.peekCqe().userData())));
            assertNull(thrownOnNewThread(() -> assertEquals(1L, ring.waitCqe().userData())));
            assertNull(thrownOnNewThread(() -> assertEquals(1L, ring.waitCqe(Duration.ofMillis(1)).userData())));
            // Seeing it consumed nothing: the CQE is still there for the owner.
            assertEquals(List.of(new Completion(1, 0, 0)), reap(ring, 1));
            assertNull(ring.peekCqe());
            prepNops(ring, 2, 1, 0);
            assertEquals(1, ring.submit());
            assertNull(thrownOnNewThread(() -> assertEquals(1, ring.forEachCqe((ud, res, fl) -> assertEquals(2L, ud)))));
            assertNull(ring.peekCqe(), "consumed by the other thread");
        }
    }

    /**
     * Linux lets another thread wait on a SINGLE_ISSUER ring and see the completions of an
     * owner that is away (the owner's task work runs wherever it is); jring's waiter runs the
     * away owner's task work for it. A DEFER_TASKRUN ring's work is the owner's alone: the
     * other thread's wait is EEXIST, and the owner finds its completions when it asks.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void anotherThreadWaitsForTheCompletionsOfAnAwayOwner(int setup) throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            run(ownerThread, () -> {
                prepNops(ring, 1, 4, SqeFlags.ASYNC);
                assertEquals(4, ring.submit());
            });
            // The owner is away now (parked in its executor) and alive.
            if ((setup & Setup.DEFER_TASKRUN) != 0) {
                assertEexist(() -> ring.waitCqe(Duration.ofMillis(1)));
                assertNull(ring.peekCqe(), "the owner's local work is not run by another thread");
                assertEquals(List.of(1L, 2L, 3L, 4L), on(ownerThread,
                        () -> reap(ring, 4).stream().map(Completion::userData).sorted().toList()));
            } else {
                assertEquals(List.of(1L, 2L, 3L, 4L), reap(ring, 4).stream().map(Completion::userData).sorted().toList());
            }
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

package io.jring.net;

import static io.jring.net.NetTestSupport.DEFER;
import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.LATER_MS;
import static io.jring.net.NetTestSupport.WAIT;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.net.NetTestSupport.OpenFds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link IoUring#close()} of a ring with armed polls, multishot polls and accepts, recvs and
 * reads waiting for data, and ASYNC recvs (in hybrid and legacy mode, where a worker may be
 * blocked in the call): close returns, and afterwards nothing of the ring is left: no
 * descriptor (counted by kind in /proc/self/fd, after a warm-up round), no epoll registration
 * of the application's fds in any epoll set of the process (the "tfd:" lines of
 * /proc/self/fdinfo), no thread named "jring-..." started for it; and none of the cancelled
 * requests consumes data or connections that arrive later (Linux's io_ring_exit_work:
 * io_uring_try_cancel_requests, io_poll_remove_all).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PollCloseTest {
    /**
     * jring threads that serve the whole process, not one ring, and may outlive any ring. A
     * process-wide thread added to the engine later belongs in this list. (The watches of
     * owners' ends, "jring-exit-...", are virtual threads, which this test does not list.)
     */
    private static final Set<String> PROCESS_WIDE_THREADS = Set.of("jring-fallback");
    private static final int ROUNDS = 3;

    static Stream<Arguments> ringKindsAndModes() {
        return Stream.of(Arguments.of(0, false), Arguments.of(DEFER, false),
                Arguments.of(0, true), Arguments.of(DEFER, true));
    }

    @ParameterizedTest(name = "setup 0x{0} legacyAsync={1}")
    @MethodSource("ringKindsAndModes")
    void closeWithWorkInFlightLeavesNoDescriptorRegistrationOrThread(int setup, boolean legacy) {
        // The first round creates whatever lives as long as the thread or the JVM (this
        // thread's epoll and wake eventfd, loaded classes): count only after it.
        closeWithWorkInFlight(setup, legacy);
        Map<String, Integer> before = descriptorKinds();
        for (int round = 0; round < ROUNDS; round++) {
            closeWithWorkInFlight(setup, legacy);
        }
        assertEquals(before, descriptorKinds(),
                "descriptors by kind before and after " + ROUNDS + " rings closed with work in flight");
    }

    /** One ring: arm everything, close, check nothing is left and nothing is consumed later. */
    private static void closeWithWorkInFlight(int setup, boolean legacy) {
        Set<Thread> threadsBefore = liveThreads();
        // An automatic arena: should the engine still touch a buffer after close (a bug), the
        // memory is not freed under it while it holds the segment.
        Arena arena = Arena.ofAuto();
        try (OpenFds fds = new OpenFds()) {
            int[] pipe = fds.pipe();
            int[] polled = fds.socketPair();
            int[] received = fds.socketPair();
            int[] asyncReceived = fds.socketPair();
            int listener = fds.listen(IPV4, 8);
            int[] ours = {pipe[0], pipe[1], polled[0], polled[1], received[0], received[1],
                    asyncReceived[0], asyncReceived[1], listener};

            IoUring ring = ring(setup, legacy);
            try {
                sqe(ring).prepPollAdd(pipe[0], Poll.IN).userData(1);
                sqe(ring).prepRead(pipe[0], arena.allocate(16), -1).userData(2);
                sqe(ring).prepPollMultishot(polled[0], Poll.IN).userData(3);
                sqe(ring).prepPollAdd(polled[0], Poll.IN | Poll.RDHUP).userData(4);
                sqe(ring).prepRecv(received[0], arena.allocate(16), 0).userData(5);
                sqe(ring).prepRecv(asyncReceived[0], arena.allocate(16), 0).flags(SqeFlags.ASYNC).userData(6);
                sqe(ring).prepAccept(listener, 0).userData(7);
                sqe(ring).prepMultishotAccept(listener, 0).userData(8);
                assertEquals(8, ring.submit());
                assertNoCqe(ring);
            } finally {
                ring.close();
            }

            assertNoEpollRegistrationOf(ours);
            assertNoThreadLeftSince(threadsBefore);

            // The cancelled requests are gone for good: later data and clients go elsewhere.
            assertDataReachesAPlainRead(pipe[1], pipe[0]);
            assertDataReachesAPlainRead(received[1], received[0]);
            assertDataReachesAPlainRead(asyncReceived[1], asyncReceived[0]);
            fds.connect(Fds.localAddress(listener));
            try (IoUring other = ring(setup)) {
                sqe(other).prepAccept(listener, 0).userData(9);
                Completion accepted = withoutNonEmptyHint(submitAndNext(other));
                assertTrue(accepted.res() >= 0, "the closed ring's accepts took the connection: " + accepted);
                fds.add(accepted.res());
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void closeFromAnotherThreadWhileTheOwnerWaitsLeavesNoRegistration(int setup) throws InterruptedException {
        Set<Thread> threadsBefore = liveThreads();
        Arena arena = Arena.ofAuto();
        try (OpenFds fds = new OpenFds()) {
            int[] pipe = fds.pipe();
            int[] received = fds.socketPair();
            int[] ours = {pipe[0], pipe[1], received[0], received[1]};
            IoUring ring = ring(setup);
            CountDownLatch armed = new CountDownLatch(1);
            CountDownLatch woke = new CountDownLatch(1);
            CountDownLatch checked = new CountDownLatch(1);
            AtomicReference<Throwable> ownerSaw = new AtomicReference<>();
            Thread owner = Thread.ofPlatform().name("net-test-owner").daemon().start(() -> {
                try {
                    sqe(ring).prepPollAdd(pipe[0], Poll.IN).userData(1);
                    sqe(ring).prepPollMultishot(received[0], Poll.IN).userData(2);
                    sqe(ring).prepRecv(received[0], arena.allocate(16), 0).userData(3);
                    ring.submit();
                    armed.countDown();
                    ownerSaw.set(new AssertionError("waitCqe returned " + ring.waitCqe(WAIT)));
                } catch (Throwable t) {
                    ownerSaw.set(t);
                } finally {
                    armed.countDown();
                    woke.countDown();
                }
                try {
                    // Alive until the registrations are checked: a thread's exit may clean up
                    // on its own, which is not what is tested here.
                    checked.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                assertTrue(armed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                Thread.sleep(LATER_MS); // usually the owner sleeps in its wait by now; correct either way
                ring.close();
                assertTrue(woke.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "close did not wake the owner");
                IoUringException e = assertInstanceOf(IoUringException.class, ownerSaw.get());
                assertEquals(Errno.EBADFD, e.errno());
                awaitNoEpollRegistrationOf(ours);
            } finally {
                checked.countDown();
                owner.join(WAIT.toMillis());
            }
            assertFalse(owner.isAlive());
            assertNoThreadLeftSince(threadsBefore);
            assertDataReachesAPlainRead(pipe[1], pipe[0]);
            assertDataReachesAPlainRead(received[1], received[0]);
        }
    }

    private static void assertDataReachesAPlainRead(int writeFd, int readFd) {
        Fds.write(writeFd, ascii("later"));
        byte[] got = new byte[16];
        assertEquals(5, Fds.read(readFd, got), "fd " + readFd);
    }

    // ---- /proc/self ----

    /**
     * Open descriptors by kind: "socket", "pipe", each "anon_inode:[...]" (epoll, eventfd,
     * io_uring...), "memfd". Regular files are left out: the JVM opens jars and such lazily.
     */
    static Map<String, Integer> descriptorKinds() {
        Map<String, Integer> kinds = new TreeMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : dir) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException gone) {
                    continue; // closed while listing (e.g. the directory stream's own fd)
                }
                String kind = target.startsWith("socket:") ? "socket"
                        : target.startsWith("pipe:") ? "pipe"
                        : target.startsWith("anon_inode:") ? target
                        : target.startsWith("/memfd:") ? "memfd"
                        : null;
                if (kind != null) {
                    kinds.merge(kind, 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kinds;
    }

    /** "epoll fd N watches fd M" for every M of {@code fds} found in any epoll set of the process. */
    static List<String> epollRegistrationsOf(int[] fds) {
        Set<Integer> wanted = new HashSet<>();
        for (int fd : fds) {
            wanted.add(fd);
        }
        List<String> found = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : dir) {
                List<String> info;
                try {
                    if (!Files.readSymbolicLink(fd).toString().equals("anon_inode:[eventpoll]")) {
                        continue;
                    }
                    info = Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()));
                } catch (IOException gone) {
                    continue;
                }
                for (String line : info) {
                    // "tfd:        7 events:       19 data: ..." (fs/eventpoll.c ep_show_fdinfo)
                    if (line.startsWith("tfd:")) {
                        int target = Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
                        if (wanted.contains(target)) {
                            found.add("epoll fd " + fd.getFileName() + " watches fd " + target + " (" + line.trim() + ")");
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static void assertNoEpollRegistrationOf(int[] fds) {
        assertEquals(List.of(), epollRegistrationsOf(fds), "registrations left behind by the closed ring");
    }

    /** As {@link #assertNoEpollRegistrationOf}, allowing the woken owner a moment to clean up. */
    private static void awaitNoEpollRegistrationOf(int[] fds) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!epollRegistrationsOf(fds).isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
        assertNoEpollRegistrationOf(fds);
    }

    private static Set<Thread> liveThreads() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    /** Every "jring-" thread started since {@code before} has ended (bounded wait), except process-wide ones. */
    private static void assertNoThreadLeftSince(Set<Thread> before) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> left;
        do {
            left = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(t) && t.isAlive() && t.getName().startsWith("jring-")
                        && !PROCESS_WIDE_THREADS.contains(t.getName())) {
                    left.add(t.getName());
                }
            }
            if (left.isEmpty()) {
                return;
            }
            Thread.yield();
        } while (System.nanoTime() - deadline < 0);
        assertEquals(List.of(), left, "threads of the closed ring still alive");
    }
}

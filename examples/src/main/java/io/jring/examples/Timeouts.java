package io.jring.examples;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Timeouts and cancellation, one short scene each, printing the CQEs it gets and checking
 * them against what Linux's io_uring gives: a TIMEOUT that expires, a LINK_TIMEOUT that bounds
 * a RECV (and one that loses the race), a TIMEOUT completed by a count of CQEs, ASYNC_CANCEL
 * of a waiting RECV and of nothing, TIMEOUT_REMOVE, and a timeout update. No arguments.
 */
public final class Timeouts {
    /** A scene fails rather than hang if its CQEs take longer than this. */
    static final Duration LIMIT = Duration.ofSeconds(10);
    static final long LONG_NANOS = TimeUnit.SECONDS.toNanos(10);

    private Timeouts() {}

    public static void main(String[] args) {
        int[] sockets = Fds.socketPair();
        try (IoUring ring = IoUring.open(16); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64);
            int fd = sockets[0];

            ring.getSqe().prepTimeout(TimeUnit.MILLISECONDS.toNanos(20), 0, 0).userData(1);
            scene(ring, "TIMEOUT of 20 ms, nothing else", new Expect(1, "timeout", -Errno.ETIME));

            ring.getSqe().prepRecv(fd, buf, 0).flags(SqeFlags.IO_LINK).userData(1);
            ring.getSqe().prepLinkTimeout(TimeUnit.MILLISECONDS.toNanos(50), 0).userData(2);
            scene(ring, "RECV on a quiet socket, bounded by a 50 ms LINK_TIMEOUT",
                    new Expect(1, "recv", -Errno.ECANCELED, -Errno.EINTR), new Expect(2, "link timeout", -Errno.ETIME));

            byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
            Fds.write(sockets[1], hello);
            ring.getSqe().prepRecv(fd, buf, 0).flags(SqeFlags.IO_LINK).userData(1);
            ring.getSqe().prepLinkTimeout(LONG_NANOS, 0).userData(2);
            scene(ring, "RECV with data waiting, bounded by a 10 s LINK_TIMEOUT",
                    new Expect(1, "recv", hello.length), new Expect(2, "link timeout", -Errno.ECANCELED));

            ring.getSqe().prepTimeout(LONG_NANOS, 2, 0).userData(1);
            ring.getSqe().prepNop().userData(2);
            ring.getSqe().prepNop().userData(3);
            scene(ring, "TIMEOUT of 10 s with count 2, then two NOPs",
                    new Expect(1, "timeout", 0), new Expect(2, "nop", 0), new Expect(3, "nop", 0));

            ring.getSqe().prepRecv(fd, buf, 0).userData(1);
            ring.submit();
            ring.getSqe().prepCancel(1, 0).userData(2);
            scene(ring, "ASYNC_CANCEL of a RECV waiting for data",
                    new Expect(1, "recv", -Errno.ECANCELED), new Expect(2, "cancel", 0));

            ring.getSqe().prepCancel(12345, 0).userData(1);
            scene(ring, "ASYNC_CANCEL of user data no request has", new Expect(1, "cancel", -Errno.ENOENT));

            ring.getSqe().prepTimeout(LONG_NANOS, 0, 0).userData(1);
            ring.submit();
            ring.getSqe().prepTimeoutRemove(1).userData(2);
            scene(ring, "TIMEOUT of 10 s, then TIMEOUT_REMOVE",
                    new Expect(1, "timeout", -Errno.ECANCELED), new Expect(2, "remove", 0));

            ring.getSqe().prepTimeout(LONG_NANOS, 0, 0).userData(1);
            ring.submit();
            ring.getSqe().prepTimeoutUpdate(1, TimeUnit.MILLISECONDS.toNanos(10), 0).userData(2);
            scene(ring, "TIMEOUT of 10 s, updated to expire in 10 ms",
                    new Expect(1, "timeout", -Errno.ETIME), new Expect(2, "update", 0));
        } finally {
            Fds.close(sockets[0]);
            Fds.close(sockets[1]);
        }
        System.out.println("all scenes gave Linux's results");
    }

    /** The CQE a scene expects for one user data: any of {@code results}. */
    record Expect(long userData, String what, int... results) {}

    /** Submits the scene's SQEs, waits for one CQE per expectation, prints and checks them. */
    static void scene(IoUring ring, String title, Expect... expected) {
        System.out.println(title + ":");
        ring.submit();
        for (int seen = 0; seen < expected.length; seen++) {
            Cqe cqe = ring.waitCqe(LIMIT);
            if (cqe == null) {
                throw new IllegalStateException(title + ": no CQE within " + LIMIT);
            }
            long userData = cqe.userData();
            int res = cqe.res();
            ring.cqeSeen(cqe);
            Expect e = Arrays.stream(expected).filter(x -> x.userData() == userData).findFirst()
                    .orElseThrow(() -> new IllegalStateException(title + ": unexpected CQE for " + userData));
            System.out.println("  " + e.what() + ": " + (res < 0 ? "-" + Errno.name(res) : String.valueOf(res)));
            if (Arrays.stream(e.results()).noneMatch(r -> r == res)) {
                throw new IllegalStateException(title + ": " + e.what() + " got " + res + ", expected one of "
                        + Arrays.toString(e.results()));
            }
        }
    }
}
